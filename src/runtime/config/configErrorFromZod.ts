import type { z } from 'zod';
import { ConfigError, formatConfigPath, showConfigValue, type ConfigProblem } from './configError.js';
import { VALUE_NOT_SHOWN } from './configFields.js';

/**
 * Turns zod issues into one line each: where, what was expected, and what was there. The value is
 * looked up in the input by path rather than taken from zod, so it is the text the user wrote.
 * Exported for the strategy host, which validates `strategies[i].params` with each strategy's own
 * schema and passes that prefix as `basePath`.
 */
export function configErrorFromZod(error: z.ZodError, input: unknown, basePath: readonly PropertyKey[] = [], source?: string): ConfigError {
  const problems = error.issues.flatMap((issue) => describeIssue(issue, input, basePath));
  const [first, ...rest] = problems;
  if (first === undefined) return new ConfigError([{ path: formatConfigPath(basePath), problem: 'invalid config' }], source === undefined ? {} : { source });
  return new ConfigError([first, ...rest], source === undefined ? {} : { source });
}

function describeIssue(issue: z.core.$ZodIssue, input: unknown, basePath: readonly PropertyKey[]): ConfigProblem[] {
  const at = [...basePath, ...issue.path];
  const value = valueAt(input, issue.path);
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({
      path: formatConfigPath([...at, key]),
      problem: `unknown key ${JSON.stringify(key)} (check the spelling; allowed keys are listed in config/default.yaml)`,
    }));
  }
  const expected = expectation(issue);
  if (value === undefined) return [{ path: formatConfigPath(at), problem: `required value is missing (${expected})` }];
  if (expected.endsWith(VALUE_NOT_SHOWN)) return [{ path: formatConfigPath(at), problem: expected }];
  return [{ path: formatConfigPath(at), problem: `${expected}, got ${showConfigValue(value)}` }];
}

function expectation(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${article(issue.expected)}`;
    case 'invalid_value':
      return issue.values.length === 1 ? `expected ${JSON.stringify(issue.values[0])}` : `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(' | ')}`;
    case 'too_small':
      return bound(issue.origin, issue.minimum, issue.inclusive ?? true, 'small');
    case 'too_big':
      return bound(issue.origin, issue.maximum, issue.inclusive ?? true, 'big');
    case 'invalid_format':
      return `expected ${article(issue.format)}`;
    case 'invalid_union': {
      const options = issue.errors.map((branch) => (branch[0] === undefined ? 'something else' : expectation(branch[0]).replace(/^expected /, '')));
      return `expected ${[...new Set(options)].join(' or ')}`;
    }
    default:
      return issue.message;
  }
}

function bound(origin: string, limit: number | bigint, inclusive: boolean, side: 'small' | 'big'): string {
  const small = side === 'small';
  if (origin === 'number' || origin === 'bigint') {
    if (small && Number(limit) === 0 && !inclusive) return 'expected a positive number';
    return `expected a number ${small ? (inclusive ? '>=' : '>') : inclusive ? '<=' : '<'} ${limit}`;
  }
  const count = inclusive ? Number(limit) : small ? Number(limit) + 1 : Number(limit) - 1;
  const unit = origin === 'array' || origin === 'set' ? (count === 1 ? 'entry' : 'entries') : count === 1 ? 'character' : 'characters';
  return `expected ${small ? 'at least' : 'at most'} ${count} ${unit}`;
}

function article(noun: string): string {
  const word = noun === 'array' ? 'list' : noun;
  return /^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let node: unknown = root;
  for (const segment of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<PropertyKey, unknown>)[segment];
  }
  return node;
}

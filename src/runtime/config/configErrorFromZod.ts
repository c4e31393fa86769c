import type { z } from 'zod';
import { closestName } from '../../core/closestName.js';
import { ConfigError, formatConfigPath, showConfigValue, type ConfigProblem } from './configError.js';
import { VALUE_NOT_SHOWN } from './configFields.js';
import { allowedKeys, describeNumber, schemaAt } from './schemaAt.js';

export interface ConfigErrorContext {
  /** The schema that was parsed; lets lines say "an integer from 1 to 65535" and suggest keys. */
  readonly schema?: z.core.$ZodType;
  /** Where the parsed value sits in the whole config, e.g. `['strategies', 0, 'params']`. */
  readonly basePath?: readonly PropertyKey[];
  /** The file, shown after the lines. */
  readonly source?: string;
  /** The commented default config as the user reaches it (in a package project, under node_modules/perpbot/). */
  readonly reference?: string;
}

export const DEFAULT_REFERENCE = 'config/default.yaml';

/**
 * Turns zod issues into one line each: where, what was expected, and what was there. The value is
 * looked up in the input by path rather than taken from zod, so it is the text the user wrote.
 * Exported for the strategy host, which validates `strategies[i].params` with each strategy's own
 * schema (see `parseStrategyParams`).
 */
export function configErrorFromZod(error: z.ZodError, input: unknown, context: ConfigErrorContext = {}): ConfigError {
  const basePath = context.basePath ?? [];
  const problems = error.issues.flatMap((issue) => describeIssue(issue, input, basePath, context.schema));
  const hint = `every key is listed, with comments, in ${context.reference ?? DEFAULT_REFERENCE}`;
  const options = { hints: [hint], ...(context.source === undefined ? {} : { source: context.source }) };
  const [first, ...rest] = problems;
  if (first === undefined)
    return new ConfigError([{ path: formatConfigPath(basePath), problem: 'invalid value' }], options);
  return new ConfigError([first, ...rest], options);
}

function describeIssue(
  issue: z.core.$ZodIssue,
  input: unknown,
  basePath: readonly PropertyKey[],
  schema: z.core.$ZodType | undefined,
): ConfigProblem[] {
  const at = [...basePath, ...issue.path];
  const node = schema === undefined ? undefined : schemaAt(schema, issue.path);
  if (issue.code === 'unrecognized_keys') {
    const allowed = allowedKeys(node) ?? [];
    return issue.keys.map((key) => {
      const guess = closestName(key, allowed);
      const help =
        guess !== undefined
          ? `did you mean "${guess}"?`
          : allowed.length > 0
            ? `allowed here: ${allowed.join(', ')}`
            : 'check the spelling';
      return { path: formatConfigPath([...at, key]), problem: `unknown key ${JSON.stringify(key)} (${help})` };
    });
  }
  const value = valueAt(input, issue.path);
  const expected = expectation(issue, node);
  if (value === undefined) return [{ path: formatConfigPath(at), problem: `required value is missing (${expected})` }];
  if (expected.endsWith(VALUE_NOT_SHOWN)) return [{ path: formatConfigPath(at), problem: expected }];
  return [{ path: formatConfigPath(at), problem: `${expected}, got ${showConfigValue(value)}` }];
}

function expectation(issue: z.core.$ZodIssue, node: z.core.$ZodType | undefined): string {
  const number = describeNumber(node);
  switch (issue.code) {
    case 'invalid_type':
      if (number !== undefined) return `expected ${number}`;
      return `expected ${article(issue.expected)}`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `expected ${JSON.stringify(issue.values[0])}`
        : `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(' | ')}`;
    case 'too_small':
      if (number !== undefined) return `expected ${number}`;
      return bound(issue.origin, issue.minimum, issue.inclusive ?? true, 'small');
    case 'too_big':
      if (number !== undefined) return `expected ${number}`;
      return bound(issue.origin, issue.maximum, issue.inclusive ?? true, 'big');
    case 'invalid_format':
      return `expected ${article(issue.format)}`;
    case 'invalid_union': {
      const options = issue.errors.map((branch) =>
        branch[0] === undefined ? 'something else' : expectation(branch[0], undefined).replace(/^expected /, ''),
      );
      return `expected ${[...new Set(options)].join(' or ')}`;
    }
    // zod's own wording: a refinement's message is the config's own (custom); the others name no
    // type or bound a field's description could say better. Unknown keys get a line per key in
    // describeIssue; they arrive here only inside a union's branch.
    case 'custom':
    case 'not_multiple_of':
    case 'unrecognized_keys':
    case 'invalid_key':
    case 'invalid_element':
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
  const unit =
    origin === 'array' || origin === 'set'
      ? count === 1
        ? 'entry'
        : 'entries'
      : count === 1
        ? 'character'
        : 'characters';
  return `expected ${small ? 'at least' : 'at most'} ${count} ${unit}`;
}

function article(noun: string): string {
  const word = noun === 'array' ? 'list' : noun === 'record' ? 'mapping' : noun === 'int' ? 'integer' : noun;
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

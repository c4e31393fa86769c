import { PerpbotError } from '../../core/perpbotError.js';

/** One thing wrong with a config, at a path such as `strategies[0].params.spread_bps`. */
export interface ConfigProblem {
  readonly path: string;
  readonly problem: string;
}

/**
 * A config that cannot be used. Every problem is one line naming its path; the first problem's
 * path is `path`, so a caller that only looks at one still knows where to look.
 */
export class ConfigError extends PerpbotError {
  readonly path: string;
  readonly problems: readonly ConfigProblem[];

  constructor(
    problems: readonly [ConfigProblem, ...ConfigProblem[]],
    options: { hints?: readonly string[]; cause?: unknown; source?: string } = {},
  ) {
    const lines = problems.map((p) => `config error at ${p.path === '' ? '(top level)' : p.path}: ${p.problem}`);
    const where = options.source === undefined ? '' : ` (in ${options.source})`;
    super(`${lines.join('\n')}${where}`, {
      code: 'CONFIG_INVALID',
      details: {
        problems: problems.map((p) => ({ ...p })),
        ...(options.source === undefined ? {} : { source: options.source }),
      },
      hints: options.hints ?? [],
      cause: options.cause,
    });
    this.path = problems[0].path;
    this.problems = Object.freeze(problems.map((p) => Object.freeze({ ...p })));
  }

  static at(path: string, problem: string, hints: readonly string[] = []): ConfigError {
    return new ConfigError([{ path, problem }], { hints });
  }
}

/** `['strategies', 0, 'params', 'spread_bps']` -> `strategies[0].params.spread_bps`. */
export function formatConfigPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else {
      const name = String(segment);
      out += /^[A-Za-z_][A-Za-z0-9_-]*$/.test(name) ? (out === '' ? name : `.${name}`) : `[${JSON.stringify(name)}]`;
    }
  }
  return out;
}

/** A value as it appears in an error line: quoted strings, truncated when long. */
export function showConfigValue(value: unknown): string {
  switch (typeof value) {
    case 'undefined':
      return 'nothing';
    case 'string':
      return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
    case 'object':
      return value === null ? 'null' : showObject(value);
    case 'bigint':
    case 'number':
    case 'boolean':
    case 'symbol':
    case 'function':
      return value.toString();
  }
}

/** Its JSON when short, else what it is: `a list of 3`, `an object`. */
function showObject(value: object): string {
  const json = safeJson(value);
  if (json !== undefined && json.length <= 80) return json;
  return Array.isArray(value) ? `a list of ${value.length}` : 'an object';
}

function safeJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

import { ConfigError, formatConfigPath } from './configError.js';

/** The environment as a plain lookup, so tests pass their own instead of touching `process.env`. */
export type Env = Readonly<Record<string, string | undefined>>;

// `$${` escapes a literal `${`; otherwise `${NAME}` or `${NAME:-default}` (default may be empty).
const REFERENCE = /\$\$\{|\$\{([^}:]*)(?::-([^}]*))?\}/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Replaces `${VAR}` and `${VAR:-default}` inside every string value of a parsed YAML tree.
 * Results stay strings (numeric fields accept numeric strings), so a value never changes type
 * depending on what an environment variable happens to contain. Like the shell, `:-` also
 * applies when the variable is set but empty. Keys are never substituted.
 */
export function substituteEnv(tree: unknown, env: Env): unknown {
  return walk(tree, env, []);
}

function walk(value: unknown, env: Env, path: PropertyKey[]): unknown {
  if (typeof value === 'string') return substituteString(value, env, path);
  if (Array.isArray(value)) return value.map((item, i) => walk(item, env, [...path, i]));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = walk(item, env, [...path, key]);
    return out;
  }
  return value;
}

function substituteString(text: string, env: Env, path: readonly PropertyKey[]): string {
  return text.replace(REFERENCE, (match: string, name: string | undefined, fallback: string | undefined) => {
    if (match === '$${') return '${';
    const where = formatConfigPath(path);
    if (name === undefined || !NAME.test(name)) {
      throw ConfigError.at(where, `malformed environment reference ${JSON.stringify(match)}`, [
        'write ${NAME} or ${NAME:-default}; NAME is letters, digits and _',
        'write $${ for a literal ${',
      ]);
    }
    const set = env[name];
    if (fallback !== undefined) return set === undefined || set === '' ? fallback : set;
    if (set === undefined) {
      throw ConfigError.at(where, `environment variable ${name} is not set (referenced as ${match})`, [
        `export ${name}=... before starting, or give a default: \${${name}:-value}`,
      ]);
    }
    return set;
  });
}

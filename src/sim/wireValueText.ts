/**
 * How the simulator quotes a client's bad value back in an error text (REST `InvalidArgument`
 * messages, WebSocket error frames). Hostile input must not be able to make the quote itself fail
 * or grow: strings are cut, containers are described rather than serialised (a 30,000-deep array
 * overflows `JSON.stringify`'s stack), and secrets are never echoed.
 */

const MAX_QUOTED_CHARS = 60;

/** Field names whose values are credentials: a signed permit in a log can be replayed. */
const SECRET_FIELD = /signature|token/i;

/** `"abc"`, `1.5`, `null`, `an array of 3 items`, `an object`, `nothing` (absent). */
export function wireValueText(value: unknown, field?: string): string {
  if (value === undefined) return 'nothing';
  if (field !== undefined && SECRET_FIELD.test(field))
    return `a value of ${typeof value === 'string' ? `${value.length} chars` : kindOf(value)} (not shown)`;
  if (typeof value === 'string') {
    const cut = value.length > MAX_QUOTED_CHARS ? `${value.slice(0, MAX_QUOTED_CHARS)}…` : value;
    return `${JSON.stringify(cut)}${value.length > MAX_QUOTED_CHARS ? ` (${value.length} chars)` : ''}`;
  }
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  if (typeof value === 'bigint') return value.toString();
  return kindOf(value);
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return `an array of ${value.length} item${value.length === 1 ? '' : 's'}`;
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** The value at `path` inside parsed JSON, own properties only (`__proto__` is data, not the prototype). */
export function valueAtPath(root: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = root;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    if (typeof key === 'symbol' || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

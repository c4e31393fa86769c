import fc from 'fast-check';
import { hostileValue, jsonText, junkEntries, JsonEntries, POLLUTING, RawJson } from '../../sim/hostileValues.js';

/**
 * Malformed variants of a valid frame: one to three edits, each replacing the value at some path
 * (envelope, data, a nested record or list entry) with a hostile value, deleting it, or adding
 * junk keys (`__proto__` and `constructor` among them). Returned as JSON text.
 */
export function mutatedFrameText(frame: Record<string, unknown>): fc.Arbitrary<string> {
  const paths = pathsOf(frame);
  const edit = fc.oneof(
    fc.tuple(fc.constantFrom(...paths), hostileValue).map(
      ([path, value]) =>
        (root: unknown) =>
          setAt(root, path, value),
    ),
    fc.constantFrom(...paths).map((path) => (root: unknown) => setAt(root, path, DELETE)),
    fc.tuple(fc.constantFrom([], ...paths), junkEntries).map(
      ([path, junk]) =>
        (root: unknown) =>
          addJunk(root, path, junk),
    ),
  );
  return fc
    .array(edit, { minLength: 1, maxLength: 3 })
    .map((edits) => jsonText(edits.reduce((value, apply) => apply(value), structuredClone(frame) as unknown)));
}

/** Any text a socket could deliver: arbitrary strings, arbitrary JSON, nesting, polluting keys. */
export const arbitraryFrameText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.jsonValue().map((value) => JSON.stringify(value)),
  hostileValue.map((value) => jsonText(value)),
  fc.constant(jsonText(POLLUTING)),
  fc.constantFrom(
    '{"channel":"oracle","type":"update","__proto__":{"data":{}}}',
    '{"channel":"constructor","type":"update"}',
    '{"channel":"__proto__","type":"snapshot"}',
    '{"type":"error","message":5}',
  ),
);

const DELETE = Symbol('delete');
type Path = readonly (string | number)[];

function pathsOf(value: unknown, prefix: Path = [], depth = 0): Path[] {
  if (depth > 3 || typeof value !== 'object' || value === null) return [];
  const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return keys.flatMap((key) => {
    const path = [...prefix, key];
    return [path, ...pathsOf((value as Record<string | number, unknown>)[key], path, depth + 1)];
  });
}

function parentOf(root: unknown, path: Path): Record<string | number, unknown> | undefined {
  let current: unknown = root;
  for (const key of path.slice(0, -1)) {
    if (!isContainer(current)) return undefined;
    current = current[key];
  }
  return isContainer(current) ? current : undefined;
}

/** A plain object or array of the frame; inserted raw JSON is opaque. */
function isContainer(value: unknown): value is Record<string | number, unknown> {
  return typeof value === 'object' && value !== null && !(value instanceof RawJson) && !(value instanceof JsonEntries);
}

function setAt(root: unknown, path: Path, value: unknown): unknown {
  const parent = parentOf(root, path);
  const key = path[path.length - 1];
  if (parent === undefined || key === undefined) return root;
  if (value === DELETE) {
    if (Array.isArray(parent) && typeof key === 'number') parent.splice(key, 1);
    else delete parent[key];
  } else parent[key] = value;
  return root;
}

function addJunk(root: unknown, path: Path, junk: ReadonlyArray<readonly [string, unknown]>): unknown {
  const target = path.length === 0 ? root : (parentOf(root, path) ?? {})[path[path.length - 1]!];
  if (typeof target !== 'object' || target === null || Array.isArray(target)) return root;
  const withJunk = new JsonEntries([...Object.entries(target), ...junk]);
  return path.length === 0 ? withJunk : setAt(root, path, withJunk);
}

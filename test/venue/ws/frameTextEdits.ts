import fc from 'fast-check';
import { JsonEntries, jsonText, RawJson } from '../../sim/hostileValues.js';

/**
 * Frames as text, in the spellings a text scanner could misread: the same value written
 * otherwise (keys in another order, whitespace, escapes, numbers as `1.0` or `1e0`, a key twice)
 * and the text broken by one small edit (a character inserted, deleted or replaced, the text cut
 * short). `fastDecodeArbitraries`'s mutations edit the value; these edit the text.
 */

/** The frame's JSON text with the keys of some of its objects (envelope, data, levels, prices) reordered. */
export function reorderedFrameText(frame: Record<string, unknown>): fc.Arbitrary<string> {
  return fc.infiniteStream(fc.nat()).map((picks) => {
    const iterator = picks[Symbol.iterator]();
    const pick = (n: number): number => (iterator.next().value as number) % n;
    return jsonText(reorder(frame, pick));
  });
}

function reorder(value: unknown, pick: (n: number) => number): unknown {
  if (Array.isArray(value)) return value.map((item) => reorder(item, pick));
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).map(([key, item]) => [key, reorder(item, pick)] as const);
  // Half the objects keep their order, so a frame is seldom reordered everywhere at once.
  if (pick(2) === 0) return new JsonEntries(entries);
  const shuffled = [...entries];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = pick(i + 1);
    [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
  }
  return new JsonEntries(shuffled);
}

/** Characters that change what JSON text means, or break it. */
const TOKENS = [
  ' ',
  '\n',
  '\t',
  '\\',
  '"',
  ',',
  ':',
  '{',
  '}',
  '[',
  ']',
  '0',
  '1',
  '9',
  '.',
  '-',
  '+',
  'e',
  'E',
  'n',
  'x',
  '\u0001',
  '\u007f',
  'é',
];

/** One small edit of the text, most of which break it, some of which only respell it. */
export function editedFrameText(text: string): fc.Arbitrary<string> {
  const at = fc.nat({ max: Math.max(0, text.length - 1) });
  const token = fc.constantFrom(...TOKENS);
  return fc.oneof(
    fc.tuple(at, token).map(([i, t]) => text.slice(0, i) + t + text.slice(i)),
    at.map((i) => text.slice(0, i) + text.slice(i + 1)),
    fc.tuple(at, token).map(([i, t]) => text.slice(0, i) + t + text.slice(i + 1)),
    at.map((i) => text.slice(0, i)),
    at.map((i) => text.slice(0, i) + escaped(text.charCodeAt(i)) + text.slice(i + 1)),
    fc
      .tuple(fc.nat(), fc.constantFrom('.0', 'e0', 'E+0', '.5', '.', '0'.repeat(16)))
      .map(([n, tail]) => respellDigits(text, n, tail)),
    fc.tuple(fc.nat(), fc.constantFrom('0', '-', '-0', '+', '.')).map(([n, head]) => respellDigits(text, n, '', head)),
    fc.nat().map((n) => repeatEntry(text, n)),
    fc.constantFrom(` ${text}`, `${text}\n`, indented(text), `${text}${text}`),
  );
}

/** The same value indented (whitespace between every token), when the text is JSON. */
function indented(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 1);
  } catch {
    return `${text} `;
  }
}

/** `\uXXXX` of a character: inside a string the same value, anywhere else broken JSON. */
function escaped(code: number): string {
  return `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * A run of digits (a number, a market id, a price, a key of the oracle's prices) written with
 * `head` before it and `tail` after it: `01`, `-1`, `1.0`, `1e0`, some still valid, some not.
 * Half the picks are a whole quoted run (`"1"`: a market id, a key, a wei or nanosecond string),
 * where a leading zero is valid for some and not for others.
 */
function respellDigits(text: string, n: number, tail: string, head = ''): string {
  const quoted = n % 2 === 0;
  const runs = [...text.matchAll(quoted ? /"(\d+)"/g : /\d+/g)];
  if (runs.length === 0) return text;
  const run = runs[(n >> 1) % runs.length]!;
  const digits = run[1] ?? run[0];
  const start = run.index + (quoted ? 1 : 0);
  return text.slice(0, start) + head + digits + tail + text.slice(start + digits.length);
}

/** The `n`th `,"key":value` (or list item) written twice: a key JSON.parse keeps the last of. */
function repeatEntry(text: string, n: number): string {
  const commas = [...text.matchAll(/,/g)].map((m) => m.index);
  if (commas.length === 0) return text;
  const start = commas[n % commas.length]!;
  const next = text.indexOf(',', start + 1);
  const end = next < 0 ? text.length - 1 : next;
  return text.slice(0, end) + text.slice(start, end) + text.slice(end);
}

const EXTRA_KEYS = [
  'level_count',
  'checksum',
  'method',
  'market_id',
  'seq',
  '__proto__',
  'channel',
  'data',
  'prices',
  'bids',
];
const EXTRA_VALUES: readonly unknown[] = [1, 0, '1', null, 'x', {}, [], 1.5, 4_294_967_296];

/**
 * The frame with one object (the envelope, data, a level, the prices, a price) given one more
 * entry: a key it has, written again (JSON.parse keeps the last), or a key it lacks (an orderbook's
 * key on an oracle frame, one no frame has, `__proto__`), with its own value or another.
 */
export function extraEntryFrameText(frame: Record<string, unknown>): fc.Arbitrary<string> {
  const objects = objectPaths(frame);
  return fc
    .tuple(
      fc.constantFrom(...objects),
      fc.nat(),
      fc.constantFrom(...EXTRA_KEYS),
      fc.constantFrom(...EXTRA_VALUES),
      fc.boolean(),
    )
    .map(([path, n, extraKey, extraValue, again]) => {
      const copy = structuredClone<Record<string, unknown>>(frame);
      const target = path.reduce<Record<string, unknown>>((node, key) => node[key] as Record<string, unknown>, copy);
      const entries = Object.entries(target);
      const repeated = entries[n % Math.max(1, entries.length)];
      const key = again && repeated !== undefined ? repeated[0] : extraKey;
      const value = again && repeated !== undefined && n % 3 === 0 ? repeated[1] : extraValue;
      const withExtra = new JsonEntries([...entries, [key, value]]);
      if (path.length === 0) return jsonText(withExtra);
      const parent = path
        .slice(0, -1)
        .reduce<Record<string, unknown>>((node, k) => node[k] as Record<string, unknown>, copy);
      parent[path[path.length - 1]!] = withExtra;
      return jsonText(copy);
    });
}

/** Paths to every object (not list) in the frame, the frame itself first. */
function objectPaths(value: unknown, prefix: readonly string[] = []): (readonly string[])[] {
  if (typeof value !== 'object' || value === null) return [];
  const keys = Object.keys(value);
  const inner = keys.flatMap((key) => objectPaths((value as Record<string, unknown>)[key], [...prefix, key]));
  return Array.isArray(value) ? inner : [prefix, ...inner];
}

/**
 * The frame with one value (or one key of an object: the oracle's market ids) written in another
 * spelling: a number as `1.0`, `1e0`, `-0`, `01` or a string; a string of digits with a leading
 * zero, a sign, a fraction, or as a number; any string with its first character escaped. Some
 * spellings are still the same value, some are another valid one, some break the rule or the JSON.
 */
export function respelledValueFrameText(frame: Record<string, unknown>): fc.Arbitrary<string> {
  // Market ids (the envelope's, data's, the oracle's keys) have the strictest spelling: picked more often.
  const leaves = leafPaths(frame).flatMap((path) =>
    path.includes('market_id') || path[path.length - 2] === 'prices' ? [path, path, path, path, path] : [path],
  );
  return fc.tuple(fc.constantFrom(...leaves), fc.nat(), fc.boolean()).map(([path, n, renameKey]) => {
    const copy = structuredClone<Record<string, unknown>>(frame);
    const parent = path
      .slice(0, -1)
      .reduce<Record<string, unknown>>((node, k) => node[k] as Record<string, unknown>, copy);
    const key = path[path.length - 1]!;
    const grand = path
      .slice(0, -2)
      .reduce<Record<string, unknown>>((node, k) => node[k] as Record<string, unknown>, copy);
    if (renameKey && !Array.isArray(parent) && path.length > 1) {
      const spelled = respellings(key)[n % respellings(key).length];
      const newKey = typeof spelled === 'string' ? spelled : key;
      grand[path[path.length - 2]!] = new JsonEntries(
        Object.entries(parent).map(([k, v]) => [k === key ? newKey : k, v]),
      );
      return jsonText(copy);
    }
    const options = respellings(parent[key]);
    parent[key] = options[n % options.length];
    return jsonText(copy);
  });
}

function respellings(value: unknown): unknown[] {
  if (typeof value === 'number')
    return [
      `${value}`,
      new RawJson(`${value}.0`),
      new RawJson(`${value}e0`),
      new RawJson(`-${value}`),
      new RawJson(`0${value}`),
      new RawJson(`${value}.5`),
    ];
  if (typeof value === 'string' && /^\d+$/.test(value))
    return [
      `0${value}`,
      `-${value}`,
      `${value}.0`,
      `${value}.`,
      `+${value}`,
      ` ${value}`,
      Number(value),
      new RawJson(`"${escaped(value.charCodeAt(0))}${value.slice(1)}"`),
    ];
  if (typeof value === 'string' && value.length > 0)
    return [new RawJson(`"${escaped(value.charCodeAt(0))}${JSON.stringify(value).slice(2)}`), `${value} `, ''];
  return [1, '1', null, {}, []];
}

/** Paths to every value that is not an object or list, and to every key's value. */
function leafPaths(value: unknown, prefix: readonly string[] = []): (readonly string[])[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.keys(value).flatMap((key) => [
    ...(typeof (value as Record<string, unknown>)[key] === 'object' ? [[...prefix, key]] : []),
    ...leafPaths((value as Record<string, unknown>)[key], [...prefix, key]),
  ]);
}

import fc from 'fast-check';

/**
 * Hostile wire values for the simulator's property tests: what a buggy or malicious client
 * sends. Bodies are built as JSON text (see `jsonText`) so they can carry what a JS object cannot
 * express: duplicate keys, an own `__proto__` key, numbers beyond a double, nesting deeper than
 * `JSON.stringify` can recurse.
 */

/** A piece of JSON text inserted verbatim by `jsonText`. */
export class RawJson {
  constructor(readonly text: string) {}
}

/** A JSON object as an ordered list of entries, so keys may repeat or be `__proto__`. */
export type Entries = ReadonlyArray<readonly [string, unknown]>;

export class JsonEntries {
  constructor(readonly entries: Entries) {}
}

/** JSON text of a value that may contain `RawJson` and `JsonEntries`. */
export function jsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (value instanceof JsonEntries)
    return `{${value.entries.map(([key, item]) => `${JSON.stringify(key)}:${jsonText(item)}`).join(',')}}`;
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  if (value !== null && typeof value === 'object') return jsonText(new JsonEntries(Object.entries(value)));
  return JSON.stringify(value) ?? 'null';
}

/** Keys that pollute a prototype if a server merges bodies naively. */
export const POLLUTING = new RawJson('{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}');

/** Strings that look like numbers, markup, control characters, lone surrogates, or are very long. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  {
    arbitrary: fc.constantFrom(
      'abc',
      '<script>alert(1)</script>',
      '1e3',
      '-1',
      '1.5',
      '',
      ' ',
      '0x',
      '0x1g',
      'NaN',
      'Infinity',
      '-0',
      'null',
      'true',
      '__proto__',
      'constructor',
      'prototype',
      '１２',
      '\u0000',
      '\ud800',
      '\u202e1',
      '9'.repeat(400),
      '%00',
      "' OR 1=1 --",
      '{"a":1}',
      '[1]',
      ' 1',
      '1 ',
      '01',
      '+1',
      '0b1',
      '1_000',
      '0x' + 'f'.repeat(41),
      '0X' + '1'.repeat(40),
    ),
    weight: 6,
  },
  { arbitrary: fc.string({ maxLength: 40 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }), weight: 1 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 12 }), weight: 1 },
  { arbitrary: fc.string({ minLength: 2_000, maxLength: 6_000 }), weight: 1 },
);

/** Numbers out of every field's range or grid, plus numbers JSON can write but a double cannot hold. */
export const hostileNumber: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(-1, 1.5, -0.5, 1e308, -1e308, 2 ** 53 + 2, 2 ** 64, 1e-300, 256, 65_536, 16_777_216, 4_294_967_296),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.constantFrom(
    new RawJson('1e400'),
    new RawJson('-1e400'),
    new RawJson('123456789012345678901234567890'),
    new RawJson('1E3'),
  ),
);

/** Nesting deeper than recursive code can follow, within the 64 KiB body limit. */
export const deepArray: fc.Arbitrary<RawJson> = fc
  .integer({ min: 1_000, max: 20_000 })
  .map((depth) => new RawJson(`${'['.repeat(depth)}${']'.repeat(depth)}`));

/** null, booleans, arrays, objects (prototype-polluting ones included), deep nesting. */
export const hostileContainer: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, [], {}, POLLUTING, new RawJson('{"__proto__":null}')),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
  deepArray,
);

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(hostileString, hostileNumber, hostileContainer);

/** Unknown keys a client may add: ignored by the venue, so never a reason to answer 5xx. */
export const junkEntries: fc.Arbitrary<Array<readonly [string, unknown]>> = fc.array(
  fc.tuple(
    fc.oneof(
      fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', ''),
      fc.string({ maxLength: 12 }),
    ),
    hostileValue,
  ),
  { maxLength: 3 },
);

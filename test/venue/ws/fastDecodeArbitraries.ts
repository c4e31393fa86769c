import fc from 'fast-check';
import { expect } from 'vitest';

/**
 * What the fast-decoder property tests share: field values valid or mutated, and the check that a
 * fast decoder and its zod schema agree on every generated frame.
 */

/** Mostly the valid value; sometimes any JSON value, sometimes absent. */
export function field<T>(valid: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return fc.oneof(
    { arbitrary: valid, weight: 150 },
    { arbitrary: fc.jsonValue(), weight: 1 },
    { arbitrary: fc.constant(undefined), weight: 1 },
  );
}

export const marketId = fc.oneof(
  { arbitrary: fc.integer({ min: 0, max: 65_535 }), weight: 30 },
  { arbitrary: fc.integer({ min: 0, max: 65_535 }).map(String), weight: 10 },
  { arbitrary: fc.constantFrom(-1, 65_536, 1.5, '01', '65536', ''), weight: 1 },
);
export const nanos = fc.oneof(
  { arbitrary: fc.bigInt({ min: 0n, max: 10n ** 30n - 1n }).map(String), weight: 30 },
  { arbitrary: fc.constantFrom('', '1.5', '-1'), weight: 1 },
);
export const nonNegInt = fc.oneof(
  { arbitrary: fc.nat(), weight: 30 },
  { arbitrary: fc.constantFrom(-1, 1.5, Number.MAX_SAFE_INTEGER + 2), weight: 1 },
);
export const id = fc.oneof(
  { arbitrary: fc.string({ minLength: 1, maxLength: 12 }), weight: 20 },
  { arbitrary: fc.nat(), weight: 10 },
  { arbitrary: fc.constantFrom('', -1, 1.5, Number.MAX_SAFE_INTEGER + 2, -0), weight: 1 },
);
/** Decimal strings as trades, fills and positions carry them, and the departures around the rule. */
export const decimal = fc.oneof(
  {
    arbitrary: fc
      .tuple(
        fc.boolean(),
        fc.bigInt({ min: 0n, max: 10n ** 20n }),
        fc.option(fc.nat({ max: 10 ** 6 }), { nil: undefined }),
      )
      .map(([minus, whole, fraction]) => `${minus ? '-' : ''}${whole}${fraction === undefined ? '' : `.${fraction}`}`),
    weight: 30,
  },
  { arbitrary: fc.constantFrom('007.50', '1.', '.5', '1e3', ' 1', '-0', '0.000'), weight: 2 },
);
export const side = fc.constantFrom(0, 1, '0', '1', 'BUY', 'SELL', 'buy', 'sell', 2, 'Buy', true);

/** What arrives off the wire: JSON text parsed back (drops undefined keys, like a real frame). */
export function overTheWire(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value) ?? 'null');
}

/** JSON text with bigints written out, so two results compare key order and all. */
export function jsonWithBigints(value: unknown): string | undefined {
  return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? `${item}n` : item));
}

/**
 * The keys of a decoded message and of the records in it, in order, to four levels: what
 * `toStrictEqual` does not compare. Not JSON text: a record keeps the hostile values it was sent,
 * nested deeper than JSON.stringify can recurse.
 */
export function keyOrder(value: unknown, depth = 4): unknown {
  if (depth === 0 || typeof value !== 'object' || value === null) return null;
  if (Array.isArray(value)) return value.map((item) => keyOrder(item, depth - 1));
  return Object.keys(value).map((key) => [key, keyOrder((value as Record<string, unknown>)[key], depth - 1)]);
}

interface Schema {
  safeParse(value: unknown): { success: true; data: unknown } | { success: false };
}

/**
 * Runs the property: the schema and the fast decoder both refuse, or both accept with equal
 * results: strictly equal, and (unless `anyKeyOrder`) with their keys in the same order.
 * Frames go over the wire first unless `asGenerated` (then explicit undefined values reach both).
 */
export function holdEqual(
  arbitrary: fc.Arbitrary<unknown>,
  schema: Schema,
  fast: (value: unknown) => unknown,
  options: { readonly asGenerated?: boolean; readonly anyKeyOrder?: boolean; readonly numRuns?: number } = {},
): { accepted: number; refused: number } {
  const seen = { accepted: 0, refused: 0 };
  fc.assert(
    fc.property(arbitrary, (generated) => {
      const frame = options.asGenerated === true ? generated : overTheWire(generated);
      const expected = schema.safeParse(frame);
      const actual = fast(frame);
      if (expected.success) {
        seen.accepted++;
        expect(actual).toStrictEqual(expected.data);
        if (options.anyKeyOrder !== true) expect(keyOrder(actual)).toStrictEqual(keyOrder(expected.data));
      } else {
        seen.refused++;
        expect(actual).toBeUndefined();
      }
    }),
    { numRuns: options.numRuns ?? 1000 },
  );
  return seen;
}

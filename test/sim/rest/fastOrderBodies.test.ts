import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { fastCancelOrderBody, fastPlaceOrderBody } from '../../../src/sim/rest/fastOrderBodies.js';
import { parseInput } from '../../../src/sim/rest/parseInput.js';
import { cancelOrderAcceptSchema, placeOrderAcceptSchema } from '../../../src/venue/schemas/restAcceptedBodies.js';
import { hostileValue, JsonEntries, jsonText, junkEntries, RawJson } from '../hostileValues.js';

/**
 * The fast body checks must never accept what the zod schema refuses, and what they accept must
 * parse to exactly the schema's output. Then the route's `fast(body) ?? parseInput(schema, body)`
 * answers every body as parseInput alone does: same value, or the same refusal text.
 */
const CHECKSUMMED = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const SIGNER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

/** Per field: values the schema accepts, and near misses (plus anything hostile, or absence). */
interface FieldGen {
  readonly valid: fc.Arbitrary<unknown>;
  readonly near: fc.Arbitrary<unknown>;
}

const ABSENT = Symbol('absent');

const hexText = (minLength: number, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), minLength, maxLength });

const address: FieldGen = {
  valid: fc.oneof(
    fc.constantFrom(CHECKSUMMED, SIGNER, CHECKSUMMED.toLowerCase(), `0x${SIGNER.slice(2).toUpperCase()}`),
    fc.uint8Array({ minLength: 20, maxLength: 20 }).map((bytes) => `0x${Buffer.from(bytes).toString('hex')}`),
  ),
  // A wrong checksum (one letter's case flipped), bad digits, a short one.
  near: fc.constantFrom(
    SIGNER.replace('Cd', 'cd'),
    CHECKSUMMED.replace('C5', 'c5'),
    `0x${'g'.repeat(40)}`,
    CHECKSUMMED.slice(0, 41),
    CHECKSUMMED.slice(2),
  ),
};

const signature: FieldGen = {
  valid: fc
    .integer({ min: 64, max: 65 })
    .chain((n) => fc.uint8Array({ minLength: n, maxLength: n }))
    .map((bytes) => Buffer.from(bytes).toString('base64')),
  near: fc.oneof(
    fc
      .constantFrom(60, 63, 66, 68)
      .chain((n) => fc.uint8Array({ minLength: n, maxLength: n }))
      .map((bytes) => Buffer.from(bytes).toString('base64')),
    fc
      .uint8Array({ minLength: 64, maxLength: 64 })
      .map((bytes) => Buffer.from(bytes).toString('base64').replace(/=+$/, '')),
    fc.uint8Array({ minLength: 64, maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString('base64url')),
    fc.uint8Array({ minLength: 65, maxLength: 65 }).map((bytes) => ` ${Buffer.from(bytes).toString('base64')}`),
  ),
};

/** Integers as the venue takes them: digit strings, and JSON numbers while they are exact. */
const uintText = (bits: number): FieldGen => ({
  valid: fc.oneof(
    fc.bigInt({ min: 0n, max: (1n << BigInt(bits)) - 1n }).map(String),
    fc.integer({ min: 0, max: Math.min(2 ** bits - 1, Number.MAX_SAFE_INTEGER) }),
  ),
  near: fc.constantFrom(String(1n << BigInt(bits)), '-1', ' 1', '1.0', '', '１', '0x1', '1e3'),
});

const uintNumber = (bits: number): FieldGen => ({
  valid: fc.oneof(
    fc.integer({ min: 0, max: 2 ** bits - 1 }),
    fc.constantFrom(0, 2 ** bits - 1, -0),
    fc.integer({ min: 0, max: 2 ** bits - 1 }).map(String),
  ),
  near: fc.oneof(
    fc.constantFrom(
      -1,
      2 ** bits,
      2 ** bits - 0.5,
      0.5,
      Number.MAX_SAFE_INTEGER + 2,
      1e300,
      String(2 ** bits),
      '-1',
      '1.0',
      true,
    ),
    fc.constantFrom(new RawJson('1e400'), new RawJson('-1e400'), new RawJson('1.5e1')),
  ),
});

const enumOf = (...values: number[]): FieldGen => ({
  valid: fc.constantFrom(...values, -0),
  near: fc.constantFrom(values.length, -1, 0.5, '0', '00', String(values.length), null),
});
const bool: FieldGen = { valid: fc.boolean(), near: fc.constantFrom(0, 1, 'true', null) };

const PERMIT: Record<string, FieldGen> = {
  account: address,
  signer: address,
  nonce_anchor: uintText(48),
  nonce_bitmap_index: uintNumber(8),
  deadline: uintNumber(32),
  signature,
};

/** Every field valid, then up to two fields (top level or in the permit) replaced by a near miss, hostile value or absence. */
function bodies(fields: Record<string, FieldGen>, optionalKeys: readonly string[]): fc.Arbitrary<string> {
  const keys = Object.keys(fields);
  const record = (gens: Record<string, FieldGen>, optional: readonly string[]) =>
    fc.record(
      Object.fromEntries(
        Object.entries(gens).map(([key, gen]) => [
          key,
          optional.includes(key) ? fc.oneof(fc.constant(ABSENT), gen.valid) : gen.valid,
        ]),
      ),
    );
  const nearOrHostile = (gen: FieldGen) =>
    fc.oneof(
      { arbitrary: gen.near, weight: 4 },
      { arbitrary: hostileValue, weight: 2 },
      { arbitrary: fc.constant(ABSENT), weight: 1 },
      { arbitrary: fc.constant(undefined), weight: 1 },
    );
  const mutation = fc.oneof(
    fc.constantFrom(...keys).chain((key) => nearOrHostile(fields[key]!).map((value) => ({ where: 'top', key, value }))),
    fc
      .constantFrom(...Object.keys(PERMIT))
      .chain((key) => nearOrHostile(PERMIT[key]!).map((value) => ({ where: 'permit', key, value }))),
  );
  return fc
    .record({
      top: record(fields, optionalKeys),
      permit: fc.oneof(
        { arbitrary: record(PERMIT, []), weight: 10 },
        { arbitrary: fc.constantFrom(ABSENT, null, [], 'permit'), weight: 1 },
      ),
      mutations: fc.array(mutation, { maxLength: 2 }),
      junk: junkEntries,
      permitJunk: junkEntries,
    })
    .map(({ top, permit, mutations, junk, permitJunk }) => {
      const body: Record<string, unknown> = { ...top };
      let permitFields = permit;
      for (const m of mutations) {
        if (m.where === 'top') body[m.key] = m.value;
        else if (typeof permitFields === 'object' && permitFields !== null && !Array.isArray(permitFields))
          permitFields = { ...permitFields, [m.key]: m.value };
      }
      const permitValue =
        typeof permitFields === 'object' && permitFields !== null && !Array.isArray(permitFields)
          ? entriesOf(permitFields, permitJunk)
          : permitFields;
      return jsonText(entriesOf({ ...body, permit: permitValue }, junk));
    });
}

/** JSON object entries without the absent fields; an explicit undefined becomes a missing key in JSON anyway. */
function entriesOf(fields: Record<string, unknown>, junk: ReadonlyArray<readonly [string, unknown]>): JsonEntries {
  return new JsonEntries([
    ...Object.entries(fields).filter(([, value]) => value !== ABSENT && value !== undefined),
    ...junk,
  ]);
}

const placeBody = bodies(
  {
    market_id: uintNumber(16),
    size_steps: uintNumber(32),
    price_ticks: uintNumber(24),
    side: enumOf(0, 1),
    post_only: bool,
    reduce_only: bool,
    stp_mode: enumOf(0, 1, 2),
    order_type: enumOf(0, 1),
    time_in_force: enumOf(0, 1, 2, 3),
    builder_id: uintNumber(16),
    builder_fee_bps: uintNumber(16),
    client_order_id: uintText(64),
    ttl_units: uintNumber(16),
  },
  ['builder_id', 'builder_fee_bps', 'client_order_id', 'ttl_units'],
);

const cancelBody = bodies(
  {
    market_id: uintNumber(16),
    order_id: {
      valid: fc.oneof(
        hexText(1, 70).map((h) => `0x${h}`),
        hexText(1, 8),
      ),
      near: fc.constantFrom('0x', '0xZZ', 'ab cd', '', '0X12'),
    },
  },
  [],
);

type Outcome = { ok: true; value: unknown } | { ok: false; text: string };

function outcome(parse: () => unknown): Outcome {
  try {
    return { ok: true, value: parse() };
  } catch (error) {
    return { ok: false, text: (error as { text: string }).text };
  }
}

function holdsAgainst<S extends z.ZodType>(
  fast: (input: unknown) => unknown,
  schema: S,
  bodies: fc.Arbitrary<string>,
): { accepted: number; refused: number } {
  const tally = { accepted: 0, refused: 0 };
  fc.assert(
    fc.property(bodies, (text) => {
      const input: unknown = JSON.parse(text);
      const quick = fast(input);
      if (quick !== undefined) {
        const parsed = schema.safeParse(input);
        expect(parsed.success).toBe(true);
        expect(quick).toStrictEqual(parsed.data);
      }
      const both = outcome(() => fast(input) ?? parseInput(schema, input, 'body'));
      expect(both).toStrictEqual(outcome(() => parseInput(schema, input, 'body')));
      if (both.ok) tally.accepted += 1;
      else tally.refused += 1;
    }),
    { numRuns: 500 },
  );
  return tally;
}

describe('fast place/cancel body checks against the zod schemas', () => {
  it('place: accepts only what placeOrderAcceptSchema accepts, with its exact output; refusals are the schema’s', () => {
    const tally = holdsAgainst(fastPlaceOrderBody, placeOrderAcceptSchema, placeBody);
    // Both sides of the property were exercised (each about a third or more of the 500 runs; the
    // floors leave room for the generator's spread, a refused count near 300 was seen as 297).
    expect(tally.accepted).toBeGreaterThan(50);
    expect(tally.refused).toBeGreaterThan(150);
  });

  it('cancel: accepts only what cancelOrderAcceptSchema accepts, with its exact output; refusals are the schema’s', () => {
    const tally = holdsAgainst(fastCancelOrderBody, cancelOrderAcceptSchema, cancelBody);
    expect(tally.accepted).toBeGreaterThan(100);
    expect(tally.refused).toBeGreaterThan(150);
  });

  it('takes the bodies clients really send (no schema run needed) and outputs checksummed addresses and bigints', () => {
    const permit = {
      account: CHECKSUMMED.toLowerCase(),
      signer: SIGNER,
      nonce_anchor: '42',
      nonce_bitmap_index: 3,
      deadline: 1_800_000_000,
      signature: Buffer.alloc(64, 7).toString('base64'),
    };
    const place = {
      market_id: 1,
      size_steps: 15,
      price_ticks: 300_000,
      side: 0,
      post_only: true,
      reduce_only: false,
      stp_mode: 0,
      order_type: 1,
      time_in_force: 0,
      permit,
      client_order_id: '7',
    };
    expect(fastPlaceOrderBody(place)).toStrictEqual({
      ...place,
      permit: { ...permit, account: CHECKSUMMED, nonce_anchor: 42n },
      client_order_id: 7n,
    });
    expect(fastCancelOrderBody({ market_id: 1, order_id: '0xab', permit })?.permit?.account).toBe(CHECKSUMMED);
    // Integers as strings or numbers, as a live client sends them (venue-wire.md §4.4).
    const numeric = {
      ...place,
      market_id: '1',
      size_steps: '15',
      permit: { ...permit, nonce_anchor: 42, deadline: '1800000000' },
    };
    expect(fastPlaceOrderBody(numeric)).toStrictEqual(fastPlaceOrderBody(place));
    // Anything doubtful is the schema's to judge.
    expect(fastPlaceOrderBody({ ...place, builder_id: undefined })).toBeUndefined();
    expect(
      fastCancelOrderBody({ market_id: 1, order_id: '0xab', permit: { ...permit, nonce_anchor: String(1n << 48n) } }),
    ).toBeUndefined();
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  FAST_REQUEST_CHECKS,
  fastAcceptsCancelAll,
  fastAcceptsCancelOrder,
  fastAcceptsPlaceOrder,
} from '../../../src/venue/rest/fastRequestChecks.js';
import {
  cancelAllRequestSchema,
  cancelOrderRequestSchema,
  placeOrderRequestSchema,
} from '../../../src/venue/schemas/restOrders.js';

const CHECKSUMMED = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const PERMIT = {
  account: CHECKSUMMED,
  signer: '0x2222222222222222222222222222222222222222',
  nonce_anchor: '1001',
  nonce_bitmap_index: 3,
  deadline: 1_700_000_060,
  signature: Buffer.alloc(64, 1).toString('base64'),
};
const ORDER = {
  market_id: 1,
  size_steps: 15,
  price_ticks: 650_000,
  side: 0,
  post_only: true,
  reduce_only: false,
  stp_mode: 0,
  order_type: 1,
  time_in_force: 0,
  client_order_id: '123456789',
  permit: PERMIT,
};

/** Values near every field's edges, of every JSON type, for the property runs. */
const awkward = fc.oneof(
  fc.constantFrom(
    undefined,
    null,
    true,
    false,
    0,
    -0,
    1,
    -1,
    2,
    3,
    4,
    0.5,
    255,
    256,
    65_535,
    65_536,
    16_777_215,
    16_777_216,
    4_294_967_295,
    4_294_967_296,
    Number.NaN,
    Number.POSITIVE_INFINITY,
  ),
  fc.constantFrom(
    '',
    '0',
    '1',
    '01',
    '-1',
    '1.5',
    '281474976710655',
    '281474976710656',
    '18446744073709551615',
    '18446744073709551616',
    '99999999999999999999',
    ' 1',
    '0x1',
  ),
  fc.constantFrom(
    CHECKSUMMED,
    CHECKSUMMED.toLowerCase(),
    CHECKSUMMED.toUpperCase().replace('0X', '0x'),
    CHECKSUMMED.replace('a', 'A'),
    '0x123',
    'abc',
  ),
  fc.constantFrom(
    Buffer.alloc(64, 7).toString('base64'),
    Buffer.alloc(65, 7).toString('base64'),
    Buffer.alloc(63, 7).toString('base64'),
    'not base64',
    `${Buffer.alloc(64, 7).toString('base64')}=`,
  ),
  fc.constantFrom('abc', '0xabc', '0xzz', '0x'),
  fc.integer(),
  fc.string(),
  fc.constant([]),
  fc.constant({}),
);

/** A valid body with a field or two replaced or removed (at the top, or inside its permit). */
function mutated(valid: Record<string, unknown>, nested?: { key: string; valid: Record<string, unknown> }) {
  const keys = Object.keys(valid);
  const edit = fc.dictionary(fc.constantFrom(...keys, 'extra'), awkward, { maxKeys: 2 });
  const nestedEdit =
    nested === undefined
      ? fc.constant({})
      : fc.dictionary(fc.constantFrom(...Object.keys(nested.valid)), awkward, { minKeys: 1, maxKeys: 2 });
  return fc.tuple(edit, nestedEdit, fc.boolean()).map(([top, inner, editNested]) => {
    const body: Record<string, unknown> = { ...valid, ...top };
    if (nested !== undefined && editNested && typeof body[nested.key] === 'object')
      body[nested.key] = { ...nested.valid, ...inner };
    return body;
  });
}

function holdsToSchema(
  check: (body: unknown) => boolean,
  schema: z.ZodType,
  bodies: fc.Arbitrary<Record<string, unknown>>,
): void {
  fc.assert(
    fc.property(bodies, (body) => {
      // Fast "yes" only where the schema says yes.
      if (check(body)) expect(schema.safeParse(body).success).toBe(true);
    }),
    { numRuns: 10_000 },
  );
}

describe('fast request checks', () => {
  it("accept the engine's bodies as they are signed, and are registered for their schemas", () => {
    expect(fastAcceptsPlaceOrder(ORDER)).toBe(true);
    expect(
      fastAcceptsPlaceOrder({
        ...ORDER,
        client_order_id: undefined,
        permit: undefined,
        ttl_units: 60,
        time_in_force: 1,
      }),
    ).toBe(true);
    expect(fastAcceptsCancelOrder({ market_id: 1, order_id: '0xab12', permit: PERMIT })).toBe(true);
    expect(
      fastAcceptsCancelAll({ market_id: 2, permit: { ...PERMIT, signature: Buffer.alloc(65, 2).toString('base64') } }),
    ).toBe(true);
    expect(FAST_REQUEST_CHECKS.get(placeOrderRequestSchema)).toBe(fastAcceptsPlaceOrder);
    expect(FAST_REQUEST_CHECKS.get(cancelOrderRequestSchema)).toBe(fastAcceptsCancelOrder);
    expect(FAST_REQUEST_CHECKS.get(cancelAllRequestSchema)).toBe(fastAcceptsCancelAll);
  });

  it('leave to the schema what it refuses: bad checksum, out-of-range integers, market 0 for cancel-all', () => {
    expect(fastAcceptsPlaceOrder({ ...ORDER, permit: { ...PERMIT, account: CHECKSUMMED.replace('a', 'A') } })).toBe(
      false,
    );
    expect(fastAcceptsPlaceOrder({ ...ORDER, price_ticks: 16_777_216 })).toBe(false);
    expect(fastAcceptsPlaceOrder({ ...ORDER, side: 2 })).toBe(false);
    expect(fastAcceptsPlaceOrder({ ...ORDER, permit: { ...PERMIT, nonce_anchor: '1.5' } })).toBe(false);
    expect(fastAcceptsCancelAll({ market_id: 0, permit: PERMIT })).toBe(false);
    expect(fastAcceptsCancelOrder({ market_id: 1, order_id: 'xyz' })).toBe(false);
  });

  it('never accept a place body the schema refuses', () => {
    holdsToSchema(fastAcceptsPlaceOrder, placeOrderRequestSchema, mutated(ORDER, { key: 'permit', valid: PERMIT }));
  });

  it('never accept a cancel or cancel-all body the schema refuses', () => {
    holdsToSchema(
      fastAcceptsCancelOrder,
      cancelOrderRequestSchema,
      mutated({ market_id: 1, order_id: '0xab12', permit: PERMIT }, { key: 'permit', valid: PERMIT }),
    );
    holdsToSchema(
      fastAcceptsCancelAll,
      cancelAllRequestSchema,
      mutated({ market_id: 1, permit: PERMIT }, { key: 'permit', valid: PERMIT }),
    );
  });
});

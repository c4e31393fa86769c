import { describe, expect, it } from 'vitest';
import {
  cancelAllRequestSchema,
  cancelOrderRequestSchema,
  openOrdersResponseSchema,
  placeOrderRequestSchema,
  placeOrderResponseSchema,
  type PlaceOrderRequestWire,
} from '../../../src/venue/schemas/restOrders.js';
import { actionReceiptResponseSchema } from '../../../src/venue/schemas/restActionReceipt.js';
import { permitSchema, type PermitWire } from '../../../src/venue/schemas/restPermit.js';
import { issuePaths } from './restIssuePaths.js';

const ACCOUNT = '0x1111111111111111111111111111111111111111';
const SIGNER = '0x2222222222222222222222222222222222222222';
const TX = `0x${'ab'.repeat(32)}`;

const permit: PermitWire = {
  account: ACCOUNT,
  signer: SIGNER,
  nonce_anchor: '1001',
  nonce_bitmap_index: 0,
  deadline: 1_700_000_060,
  signature: Buffer.alloc(64, 1).toString('base64'),
};

const order: PlaceOrderRequestWire = {
  market_id: 1,
  size_steps: 15,
  price_ticks: 650_000,
  side: 0,
  post_only: false,
  reduce_only: false,
  stp_mode: 0,
  order_type: 1,
  time_in_force: 0,
  permit,
};

describe('permit schema', () => {
  it('parses the anchor to bigint and keeps the rest', () => {
    expect(permitSchema.parse(permit)).toEqual({ ...permit, nonce_anchor: 1001n });
  });

  it('checks the anchor as uint48, the index as uint8 and the deadline as uint32', () => {
    expect(issuePaths(permitSchema.safeParse({ ...permit, nonce_anchor: (1n << 48n).toString() }))).toEqual([
      'nonce_anchor',
    ]);
    expect(issuePaths(permitSchema.safeParse({ ...permit, nonce_bitmap_index: 256 }))).toEqual(['nonce_bitmap_index']);
    // 208..255 are well-formed: the venue itself answers them with InvalidNonceIndex.
    expect(permitSchema.safeParse({ ...permit, nonce_bitmap_index: 208 }).success).toBe(true);
    expect(issuePaths(permitSchema.safeParse({ ...permit, deadline: 2 ** 32 }))).toEqual(['deadline']);
    expect(issuePaths(permitSchema.safeParse({ ...permit, signature: `0x${'ab'.repeat(65)}` }))).toEqual(['signature']);
  });
});

describe('place order schemas', () => {
  it('parses a permit order and a JWT order (no permit)', () => {
    expect(placeOrderRequestSchema.parse(order).permit?.nonce_anchor).toBe(1001n);
    const { permit: _omitted, ...jwtOrder } = order;
    expect(placeOrderRequestSchema.parse(jwtOrder).permit).toBeUndefined();
  });

  it('parses the optional builder, client order id and ttl fields', () => {
    const parsed = placeOrderRequestSchema.parse({
      ...order,
      builder_id: 7,
      builder_fee_bps: 5,
      client_order_id: '18446744073709551615',
      ttl_units: 30,
    });
    expect(parsed.client_order_id).toBe(18446744073709551615n);
    expect(parsed.builder_id).toBe(7);
    expect(issuePaths(placeOrderRequestSchema.safeParse({ ...order, client_order_id: 5 }))).toEqual([
      'client_order_id',
    ]);
    expect(
      issuePaths(placeOrderRequestSchema.safeParse({ ...order, client_order_id: '18446744073709551616' })),
    ).toEqual(['client_order_id']);
  });

  it('range-checks size_steps (uint32) and price_ticks (uint24) and the enums', () => {
    expect(
      placeOrderRequestSchema.safeParse({ ...order, size_steps: 4_294_967_295, price_ticks: 16_777_215 }).success,
    ).toBe(true);
    expect(issuePaths(placeOrderRequestSchema.safeParse({ ...order, size_steps: 4_294_967_296 }))).toEqual([
      'size_steps',
    ]);
    expect(issuePaths(placeOrderRequestSchema.safeParse({ ...order, price_ticks: 16_777_216 }))).toEqual([
      'price_ticks',
    ]);
    expect(issuePaths(placeOrderRequestSchema.safeParse({ ...order, side: 2, time_in_force: 4, stp_mode: 3 }))).toEqual(
      ['side', 'stp_mode', 'time_in_force'],
    );
    expect(issuePaths(placeOrderRequestSchema.safeParse({ ...order, market_id: '1' }))).toEqual(['market_id']);
  });

  it('leaves the market-order TIF rule to the venue', () => {
    expect(placeOrderRequestSchema.safeParse({ ...order, order_type: 0, time_in_force: 0 }).success).toBe(true);
  });

  it('parses the place answer with and without the venue extras', () => {
    expect(placeOrderResponseSchema.parse({ data: { order_id: '0xabc' } }).data.order_id).toBe('0xabc');
    const full = placeOrderResponseSchema.parse({
      data: {
        order_id: '0x00000000000000020000',
        tx_hash: TX,
        block_number: 42,
        sc_order_id: 99,
        filled_quantity: '0.001',
        filled_percent: 50,
        message: 'ok',
      },
    });
    expect(full.data.sc_order_id).toBe('99');
    expect(full.data.filled_percent).toBe('50');
    expect(full.data.block_number).toBe(42);
    expect(issuePaths(placeOrderResponseSchema.safeParse({ data: { order_id: 'zz' } }))).toEqual(['data.order_id']);
    // A float percent that does not print as a plain decimal is refused rather than kept as "1e-7".
    expect(issuePaths(placeOrderResponseSchema.safeParse({ data: { order_id: '0x1', filled_percent: 1e-7 } }))).toEqual(
      ['data.filled_percent'],
    );
  });
});

describe('cancel schemas', () => {
  it('parses cancel and cancel-all bodies', () => {
    expect(cancelOrderRequestSchema.parse({ market_id: 1, order_id: '0xab', permit }).order_id).toBe('0xab');
    expect(cancelAllRequestSchema.parse({ market_id: 1, permit }).market_id).toBe(1);
    expect(issuePaths(cancelOrderRequestSchema.safeParse({ market_id: 1, permit }))).toEqual(['order_id']);
  });

  it('requires a real market id for cancel-all', () => {
    expect(issuePaths(cancelAllRequestSchema.safeParse({ market_id: 0, permit }))).toEqual(['market_id']);
    expect(issuePaths(cancelAllRequestSchema.safeParse({ permit }))).toEqual(['market_id']);
  });

  it('parses the action receipt, with the block number as number or string', () => {
    expect(
      actionReceiptResponseSchema.parse({ data: { success: true, tx_hash: TX, block_number: '123' } }).data,
    ).toEqual({
      success: true,
      tx_hash: TX,
      block_number: 123,
    });
    expect(
      issuePaths(actionReceiptResponseSchema.safeParse({ data: { success: 'yes', tx_hash: TX, block_number: 1 } })),
    ).toEqual(['data.success']);
  });
});

describe('open orders schema', () => {
  const record = {
    order_id: '0x0000000000000003abcdef',
    market_id: '1',
    account: ACCOUNT,
    wide_order_id: '3',
    resting_order_id: '1',
    side: 1,
    size_steps: 10,
    price_ticks: 650_100,
    order_type: 1,
    time_in_force: 0,
    post_only: true,
    reduce_only: false,
    client_order_id: '77',
  };

  it('parses records with ids as bigints', () => {
    const parsed = openOrdersResponseSchema.parse({ data: { orders: [record], total_orders: 1 } });
    const first = parsed.data.orders[0];
    expect(first?.resting_order_id).toBe(1n);
    expect(first?.wide_order_id).toBe(3n);
    expect(first?.client_order_id).toBe(77n);
    expect(parsed.data.total_orders).toBe(1);
    expect(openOrdersResponseSchema.parse({ data: { orders: [] } }).data.orders).toEqual([]);
  });

  it('names the failing record and field', () => {
    expect(
      issuePaths(
        openOrdersResponseSchema.safeParse({ data: { orders: [record, { ...record, resting_order_id: 1 }] } }),
      ),
    ).toEqual(['data.orders.1.resting_order_id']);
  });
});

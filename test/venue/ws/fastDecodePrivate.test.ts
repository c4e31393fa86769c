import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  accountFrameSchema,
  fillsFrameSchema,
  ORDER_STATUSES,
  ordersFrameSchema,
  positionsFrameSchema,
} from '../../../src/venue/schemas/wsFramesPrivate.js';
import { decodeServerFrame } from '../../../src/venue/ws/decodeServerFrame.js';
import { fastDecodeAccount } from '../../../src/venue/ws/fastDecodeAccount.js';
import { fastDecodeFills } from '../../../src/venue/ws/fastDecodeFills.js';
import { fastDecodeOrders } from '../../../src/venue/ws/fastDecodeOrders.js';
import { fastDecodePositions } from '../../../src/venue/ws/fastDecodePositions.js';
import {
  decimal,
  field,
  holdEqual,
  id,
  jsonWithBigints,
  marketId,
  nanos,
  nonNegInt,
  side,
} from './fastDecodeArbitraries.js';
import { mutatedFrameText } from './frameMutations.js';
import { SAMPLE_CHANNEL_FRAMES } from './sampleServerFrames.js';

/**
 * The private channels' fast decoders must give what their zod schemas give, for every frame:
 * the same message (key order included: the records are loose objects, whose undeclared keys
 * zod copies after the declared ones) or a refusal from both. Records are generated from valid
 * and mutated fields, the keys the venue adds (venue-wire.md §2-3) and junk keys, in any order.
 */

const hexDigit = fc.constantFrom(...'0123456789abcdefABCDEF');
const address = fc.oneof(
  { arbitrary: fc.string({ unit: hexDigit, minLength: 40, maxLength: 40 }).map((hex) => `0x${hex}`), weight: 20 },
  {
    arbitrary: fc.constantFrom(`0x${'1'.repeat(39)}`, '1'.repeat(42), `0X${'a'.repeat(40)}`, `0x${'g'.repeat(40)}`, ''),
    weight: 1,
  },
);
const orderStatus = fc.oneof(
  { arbitrary: fc.constantFrom(...ORDER_STATUSES), weight: 10 },
  { arbitrary: fc.constantFrom('OPEN', 'order_status_open', 'ORDER_STATUS_PARTIALLY_FILLED', 1), weight: 1 },
);
const stepCount = fc.oneof(
  { arbitrary: fc.nat(), weight: 10 },
  { arbitrary: fc.bigInt({ min: 0n, max: 10n ** 25n }).map(String), weight: 10 },
  { arbitrary: fc.constantFrom('007', '', '1.5', '-1', ' 1', -1, 1.5, Number.MAX_SAFE_INTEGER + 2), weight: 1 },
);
/** The venue's "none" is "", a frequent value, so it is generated often. */
const clientOrderId = fc.oneof(
  { arbitrary: fc.string({ maxLength: 8 }), weight: 10 },
  { arbitrary: fc.constant(''), weight: 5 },
  { arbitrary: fc.nat(), weight: 5 },
  { arbitrary: fc.constantFrom(-1, 1.5, null, true), weight: 1 },
);
const venueOrderNumber = fc.oneof(
  { arbitrary: fc.bigInt({ min: 0n, max: 2n ** 64n }).map(String), weight: 10 },
  { arbitrary: fc.constant(''), weight: 5 },
  { arbitrary: fc.constantFrom('x1', '1.5', '-1', 12), weight: 1 },
);
const orderId = fc.oneof(
  { arbitrary: fc.string({ unit: hexDigit, minLength: 1, maxLength: 48 }).map((hex) => `0x${hex}`), weight: 10 },
  { arbitrary: fc.constantFrom('', 12, null), weight: 1 },
);
const fillTime = fc.oneof(
  { arbitrary: nanos, weight: 10 },
  { arbitrary: fc.nat(), weight: 5 },
  { arbitrary: fc.constantFrom(-1, 1.5, '9'.repeat(31), Number.MAX_SAFE_INTEGER + 2), weight: 2 },
);
const liquidity = fc.oneof(
  { arbitrary: fc.constantFrom('MAKER', 'TAKER'), weight: 10 },
  { arbitrary: fc.constantFrom('maker', ''), weight: 1 },
);
const marginMode = fc.constantFrom(0, 1, 2, 'CROSS', 'ISOLATED', '', -1, null, true);
const leverage = fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: 100 }).map(String), weight: 5 },
  { arbitrary: fc.integer({ min: 1, max: 100 }), weight: 5 },
  { arbitrary: fc.double(), weight: 2 },
  // NaN and the infinities reach the decoders only as JavaScript values (JSON has none).
  { arbitrary: fc.constantFrom(true, null, [10], Number.NaN, Number.POSITIVE_INFINITY), weight: 2 },
);

/** Keys the private schemas do not declare: junk, polluting and numeric ones (JSON puts those first). */
const junkKey = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', '0', '12', ''),
  fc.string({ maxLength: 10 }),
);

type Entries = [string, unknown][];

/**
 * A loose record: the declared fields (mutated by `field`), the keys the venue adds, and up to
 * three junk keys, shuffled. Built from entries so a `__proto__` key is an own key, as JSON.parse
 * makes it.
 */
function looseRecord(
  declared: Record<string, fc.Arbitrary<unknown>>,
  required: readonly string[],
  venueExtras: Record<string, fc.Arbitrary<unknown>>,
): fc.Arbitrary<Record<string, unknown>> {
  const fields = Object.fromEntries(Object.entries(declared).map(([key, valid]) => [key, field(valid)]));
  return fc
    .tuple(
      fc.record(fields, { requiredKeys: required as string[] }),
      fc.record(venueExtras, { requiredKeys: [] }),
      fc.array(fc.tuple(junkKey, fc.jsonValue()), { maxLength: 3 }),
    )
    .map(([own, extras, junk]): Entries => [...Object.entries(own), ...Object.entries(extras), ...junk])
    .chain((entries) => fc.shuffledSubarray(entries, { minLength: entries.length, maxLength: entries.length }))
    .map((entries) => Object.fromEntries(entries) as Record<string, unknown>);
}

const anyJson = fc.jsonValue();

const orderRecord = looseRecord(
  {
    // Either or both: the history record names its order `id` (venue-wire.md §3, orders).
    order_id: orderId,
    id: orderId,
    market_id: marketId,
    status: orderStatus,
    side,
    account: address,
    size_steps: stepCount,
    price_ticks: stepCount,
    filled_size: decimal,
    client_order_id: clientOrderId,
    wide_order_id: venueOrderNumber,
    resting_order_id: venueOrderNumber,
  },
  ['market_id', 'status'],
  {
    sender: address,
    type: fc.constantFrom('LIMIT', 'MARKET'),
    time_in_force: fc.constantFrom('GTC', 'IOC', 0, 3),
    order_type: fc.constantFrom(0, 1),
    price: decimal,
    size: decimal,
    avg_price: decimal,
    post_only: fc.boolean(),
    reduce_only: fc.boolean(),
    stp_mode: fc.constantFrom(0, 1, 2),
    filled_steps: fc.nat(),
    created_at: nanos,
    block_number: fc.nat(),
    tx_hash: fc.string(),
    stop_price: fc.constantFrom('', '64000'),
    cancel_requested: fc.boolean(),
  },
);

const positionRecord = looseRecord(
  {
    market_id: marketId,
    size: decimal,
    side,
    account: address,
    margin_mode: marginMode,
    isolated_usdc_balance: decimal,
    leverage,
    avg_entry_price: decimal,
  },
  ['market_id', 'size'],
  {
    quote_amount: decimal,
    last_funding_payment: decimal,
    unsettled_funding: decimal,
    size_steps: fc.integer().map(String),
    mark_price: decimal,
    unrealized_pnl: decimal,
    liquidation_price: fc.constantFrom('', '1234.5'),
    worker_timestamp: nanos,
  },
);

const fillRecord = looseRecord(
  {
    id,
    market_id: marketId,
    order_id: orderId,
    side,
    price: decimal,
    size: decimal,
    fee: decimal,
    time: fillTime,
    liquidity_indicator: liquidity,
    client_order_id: clientOrderId,
    realized_pnl: decimal,
  },
  ['id', 'market_id', 'order_id', 'side', 'price', 'size', 'fee', 'time', 'liquidity_indicator'],
  {
    account: address,
    realized_pnl_percentage: decimal,
    avg_price: decimal,
    leverage,
    position_side: fc.constantFrom('BUY', 'SELL', ''),
    margin_mode: marginMode,
    blockchain_data: fc.record({ block_number: fc.nat(), log_index: fc.nat(), tx_hash: fc.string() }),
    is_liquidation: fc.boolean(),
    is_otc: anyJson,
  },
);

const accountRecord = looseRecord({ balance: decimal, account: address }, ['balance'], {
  equity: decimal,
  free_collateral: decimal,
});

/** The envelope: the schema's tail, and keys it does not declare (market_id, method, position_count). */
function privateFrame(channel: string, data: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.record(
    {
      channel: field(fc.constant(channel)),
      type: field(fc.constantFrom('snapshot', 'update')),
      data: field(data),
      worker_timestamp: field(nanos),
      block_number: field(nonNegInt),
      log_index: field(nonNegInt),
      tx_hash: field(fc.string()),
      market_id: field(marketId),
      method: fc.constantFrom('snapshot', 'subscribe'),
      position_count: fc.nat(),
    },
    { requiredKeys: ['channel', 'type', 'data', 'worker_timestamp'] },
  );
}

const CHANNELS = [
  {
    channel: 'orders',
    frame: privateFrame('orders', fc.array(field(orderRecord), { maxLength: 3 })),
    schema: ordersFrameSchema,
    fast: fastDecodeOrders,
  },
  {
    channel: 'positions',
    frame: privateFrame('positions', fc.array(field(positionRecord), { maxLength: 3 })),
    schema: positionsFrameSchema,
    fast: fastDecodePositions,
  },
  { channel: 'fills', frame: privateFrame('fills', fillRecord), schema: fillsFrameSchema, fast: fastDecodeFills },
  {
    channel: 'account',
    frame: privateFrame('account', accountRecord),
    schema: accountFrameSchema,
    fast: fastDecodeAccount,
  },
] as const;

describe('the private channels’ fast decoders equal their schemas', () => {
  for (const { channel, frame, schema, fast } of CHANNELS) {
    it(`${channel}: generated frames, over the wire`, () => {
      // Each side is a fifth or more of the runs on every channel: the floors leave room for chance.
      const seen = holdEqual(frame, schema, fast, { numRuns: 400 });
      expect(seen.accepted).toBeGreaterThan(40);
      expect(seen.refused).toBeGreaterThan(40);
    });

    it(`${channel}: generated frames as JavaScript values (a key present with undefined is not absent)`, () => {
      const seen = holdEqual(frame, schema, fast, { asGenerated: true, numRuns: 200 });
      expect(seen.accepted).toBeGreaterThan(20);
      expect(seen.refused).toBeGreaterThan(20);
    });

    it(`${channel}: the samples mutated (hostile values, deletions, junk and __proto__ keys)`, () => {
      const samples = SAMPLE_CHANNEL_FRAMES.filter((sample) => sample['channel'] === channel);
      const mutated = fc.constantFrom(...samples).chain(mutatedFrameText);
      const seen = holdEqual(
        mutated.map((text) => JSON.parse(text) as unknown),
        schema,
        fast,
        { asGenerated: true, numRuns: 300 },
      );
      expect(seen.accepted).toBeGreaterThan(20);
      expect(seen.refused).toBeGreaterThan(20);
    });
  }
});

/** The order records of a frame that must decode. */
function ordersOf(frame: Record<string, unknown>): readonly Record<string, unknown>[] {
  const message = fastDecodeOrders(frame);
  if (message === undefined) throw new Error(`refused: ${JSON.stringify(frame)}`);
  expect(message).toStrictEqual(ordersFrameSchema.parse(frame));
  return message.orders;
}

const ACCOUNT = '0x1111111111111111111111111111111111111111';
const ENVELOPE = { channel: 'orders', type: 'update', worker_timestamp: '5' } as const;

describe('the private fast decoders on the venue’s records', () => {
  it('read the history-shaped order record: `id` as order_id, string enums; its other keys kept after, in order', () => {
    const [order] = ordersOf({
      ...ENVELOPE,
      data: [
        {
          id: '0x0102',
          market_id: '1',
          sender: ACCOUNT,
          side: 'SELL',
          type: 'LIMIT',
          status: 'ORDER_STATUS_OPEN',
          price: '65000.50',
          filled_size: '0.10',
          resting_order_id: '12',
        },
      ],
    });
    expect(JSON.stringify(order)).toBe(
      JSON.stringify({
        order_id: '0x0102',
        market_id: 1,
        status: 'ORDER_STATUS_OPEN',
        side: 'sell',
        filled_size: '0.1',
        resting_order_id: '12',
        id: '0x0102',
        sender: ACCOUNT,
        type: 'LIMIT',
        price: '65000.50',
      }),
    );
  });

  it('keep `order_id` over `id` when a record has both', () => {
    const [order] = ordersOf({
      ...ENVELOPE,
      data: [{ id: 'history', order_id: '0xab', market_id: 2, status: 'ORDER_STATUS_NONE' }],
    });
    expect(order).toMatchObject({ order_id: '0xab', id: 'history' });
  });

  it('read client_order_id "" as none: the key stays, undefined, as zod leaves it', () => {
    const [order] = ordersOf({
      ...ENVELOPE,
      data: [{ order_id: '0xab', market_id: 2, status: 'ORDER_STATUS_OPEN', client_order_id: '' }],
    });
    expect(Object.keys(order ?? {})).toContain('client_order_id');
    expect(order?.['client_order_id']).toBeUndefined();
    const fill = fastDecodeFills({
      ...SAMPLE_CHANNEL_FRAMES.find((sample) => sample['channel'] === 'fills'),
      data: {
        id: 1,
        market_id: 1,
        order_id: '0xab',
        side: 1,
        price: '1',
        size: '1',
        fee: '0',
        time: 9,
        liquidity_indicator: 'MAKER',
        client_order_id: 7,
      },
    });
    expect(fill?.fill).toMatchObject({ id: '1', side: 'sell', time: 9n, client_order_id: '7' });
  });

  it('keep the keys the venue adds, values as sent (a fill’s blockchain_data, an account’s equity)', () => {
    const sample = SAMPLE_CHANNEL_FRAMES.filter((frame) => frame['channel'] === 'fills').at(-1);
    const decoded = fastDecodeFills(sample);
    expect(decoded?.fill).toMatchObject({
      realized_pnl_percentage: '0',
      blockchain_data: { block_number: 7, log_index: 3 },
      is_otc: false,
    });
    const account = fastDecodeAccount({ ...ENVELOPE, channel: 'account', data: { equity: '10', balance: '-0.50' } });
    expect(jsonWithBigints(account)).toBe(
      '{"workerTimestamp":"5n","channel":"account","type":"update","account":{"balance":"-0.5","equity":"10"}}',
    );
  });

  it('refuse a malformed field, and decodeServerFrame then names it through zod', () => {
    const sample = SAMPLE_CHANNEL_FRAMES.filter((frame) => frame['channel'] === 'fills').at(-1) ?? {};
    const frame = { ...sample, data: { ...(sample['data'] as object), time: '1.5' } };
    expect(fastDecodeFills(frame)).toBeUndefined();
    const decoded = decodeServerFrame(JSON.stringify(frame));
    expect(decoded).toMatchObject({ kind: 'malformed', failure: { source: 'ws:fills', field: 'data.time' } });
    const order = { order_id: '0xab', market_id: 2, status: 'OPEN' };
    expect(fastDecodeOrders({ ...ENVELOPE, data: [order] })).toBeUndefined();
    expect(decodeServerFrame(JSON.stringify({ ...ENVELOPE, data: [order] }))).toMatchObject({
      failure: { source: 'ws:orders', field: 'data.0.status' },
    });
  });

  it('decodeServerFrame gives the fast decoders’ messages for the private samples', () => {
    for (const frame of SAMPLE_CHANNEL_FRAMES.filter((sample) =>
      ['orders', 'positions', 'fills', 'account'].includes(String(sample['channel'])),
    )) {
      const decoded = decodeServerFrame(JSON.stringify(frame));
      const fast = CHANNELS.find((entry) => entry.channel === frame['channel'])?.fast(frame);
      expect(decoded).toStrictEqual({ kind: 'channel', message: fast });
    }
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { oracleFrameSchema } from '../../../src/venue/schemas/wsFramesOracle.js';
import { orderbookFrameSchema } from '../../../src/venue/schemas/wsFramesOrderbook.js';
import { fastDecodeOracle } from '../../../src/venue/ws/fastDecodeOracle.js';
import { fastDecodeOrderbook } from '../../../src/venue/ws/fastDecodeOrderbook.js';
import { tradesFrameSchema } from '../../../src/venue/schemas/wsFramesTrades.js';
import { fastDecodeTrades } from '../../../src/venue/ws/fastDecodeTrades.js';
import { decimal, field, holdEqual, id, marketId, nanos, nonNegInt, side } from './fastDecodeArbitraries.js';

/**
 * The fast decoders must agree with the zod schemas on every frame: same decoded value when the
 * schema accepts, refusal when it refuses. Frames are generated valid, then each field is
 * sometimes replaced by arbitrary JSON or dropped, so both sides of every rule are exercised.
 */

const wei = fc.oneof(
  { arbitrary: fc.bigInt({ min: 0n, max: 10n ** 24n }).map(String), weight: 60 },
  { arbitrary: fc.bigInt({ min: 0n, max: 10n ** 78n - 1n }).map(String), weight: 20 },
  { arbitrary: fc.constantFrom('0', '1', '-1', '1.5', '1e18', ' 1', '0x10', '9'.repeat(79)), weight: 1 },
);
/** Book levels: decimals below 1e18 (venue-wire.md §3), and the departures around that rule. */
const bookDecimal = fc.oneof(
  {
    arbitrary: fc
      .tuple(fc.bigInt({ min: 0n, max: 10n ** 18n - 1n }), fc.option(fc.nat({ max: 10 ** 9 }), { nil: undefined }))
      .map(([whole, fraction]) => (fraction === undefined ? `${whole}` : `${whole}.${fraction}`)),
    weight: 60,
  },
  { arbitrary: fc.constantFrom('0', '0.0', '007.50', `${'9'.repeat(18)}.${'9'.repeat(18)}`), weight: 5 },
  {
    arbitrary: fc.constantFrom(
      '63218500000000000000000',
      '1'.repeat(19),
      `1.${'0'.repeat(19)}`,
      '-1',
      '1.',
      '.5',
      '1e18',
      ' 1',
      '0x10',
    ),
    weight: 2,
  },
);
const marketKey = fc.oneof(
  { arbitrary: fc.integer({ min: 0, max: 70_000 }).map(String), weight: 40 },
  { arbitrary: fc.constantFrom('01', 'btc', '-1', '__proto__', '1.0'), weight: 1 },
);
const oraclePrice = fc.record({ index_price: field(wei), mark_price: field(wei) }, { requiredKeys: [] });

const oracleFrame = fc.record({
  channel: field(fc.constant('oracle')),
  type: field(fc.constant('update')),
  market_id: field(fc.constant(null)),
  data: field(
    fc.record({
      prices: field(fc.dictionary(marketKey, field(oraclePrice), { maxKeys: 4 })),
      timestamp: field(fc.oneof(fc.nat(), fc.double({ min: 0, max: 2e9, noNaN: true }), fc.constant(-1))),
    }),
  ),
  tx_hash: field(fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), maxLength: 64 }).map((h) => `0x${h}`)),
  block_number: field(nonNegInt),
  log_index: field(nonNegInt),
  worker_timestamp: field(nanos),
});

const level = fc.record({ price: field(bookDecimal), quantity: field(bookDecimal), order_count: field(nonNegInt) });
const checksum = fc.oneof(
  { arbitrary: fc.nat({ max: 4_294_967_295 }), weight: 30 },
  { arbitrary: fc.constantFrom(4_294_967_296, -1, 2.5, '1'), weight: 1 },
);

const orderbookFrame = fc.tuple(marketId, fc.nat(9)).chain(([id, sameEnvelopeId]) =>
  fc.record({
    channel: field(fc.constant('orderbook')),
    type: field(fc.constantFrom('snapshot', 'update')),
    method: field(fc.constantFrom('snapshot', 'update')),
    // The venue's envelope id is a string, data's a number; either may be absent (not both).
    market_id: field(sameEnvelopeId > 0 ? fc.constantFrom(id, String(id)) : marketId),
    level_count: field(nonNegInt),
    checksum: field(checksum),
    data: field(
      fc.record(
        {
          market_id: field(fc.constant(id)),
          bids: field(fc.array(field(level), { maxLength: 4 })),
          asks: field(fc.array(field(level), { maxLength: 4 })),
          checksum: field(checksum),
        },
        { requiredKeys: ['bids', 'asks'] },
      ),
    ),
    worker_timestamp: field(nanos),
    block_number: field(nonNegInt),
    log_index: field(nonNegInt),
    tx_hash: field(fc.string()),
  }),
);

const trade = fc.record(
  {
    id: field(id),
    market_id: field(marketId),
    maker_order_id: field(id),
    taker_order_id: field(id),
    maker: field(fc.string({ maxLength: 6 })),
    taker: field(fc.string({ maxLength: 6 })),
    maker_side: field(side),
    price: field(decimal),
    size: field(decimal),
    fee_maker: field(decimal),
    fee_taker: field(decimal),
    fee_liquidation: field(decimal),
  },
  { requiredKeys: ['id', 'maker_order_id', 'taker_order_id', 'maker', 'taker', 'maker_side', 'price', 'size'] },
);
const tradesFrame = fc.record({
  channel: field(fc.constant('trades')),
  type: field(fc.constantFrom('snapshot', 'update')),
  market_id: field(marketId),
  data: field(fc.oneof(trade, fc.array(field(trade), { maxLength: 3 }))),
  worker_timestamp: field(nanos),
  block_number: field(nonNegInt),
  log_index: field(nonNegInt),
  tx_hash: field(fc.string()),
});

describe('fast decoders equal the schemas', () => {
  // The oracle and orderbook messages put the envelope's block, log index and hash after the
  // payload, where the schemas put them first: equal field by field, not as JSON text.
  it('oracle', () => {
    const seen = holdEqual(oracleFrame, oracleFrameSchema, fastDecodeOracle, { anyKeyOrder: true });
    expect(seen.accepted).toBeGreaterThan(100);
    expect(seen.refused).toBeGreaterThan(100);
  });

  it('orderbook', () => {
    const seen = holdEqual(orderbookFrame, orderbookFrameSchema, fastDecodeOrderbook, { anyKeyOrder: true });
    expect(seen.accepted).toBeGreaterThan(100);
    expect(seen.refused).toBeGreaterThan(100);
  });

  it('trades', () => {
    const seen = holdEqual(tradesFrame, tradesFrameSchema, fastDecodeTrades);
    expect(seen.accepted).toBeGreaterThan(100);
    expect(seen.refused).toBeGreaterThan(100);
  });

  it('refuse non-objects and other channels', () => {
    for (const frame of [null, [], 'oracle', 1, { channel: 'trades', type: 'update' }]) {
      expect(fastDecodeOracle(frame)).toBeUndefined();
      expect(fastDecodeOrderbook(frame)).toBeUndefined();
      expect(fastDecodeTrades(frame === null ? null : { channel: 'oracle', type: 'update' })).toBeUndefined();
    }
  });
});

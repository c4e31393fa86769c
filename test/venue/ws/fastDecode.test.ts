import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { oracleFrameSchema } from '../../../src/venue/schemas/wsFramesOracle.js';
import { orderbookFrameSchema } from '../../../src/venue/schemas/wsFramesOrderbook.js';
import { fastDecodeOracle } from '../../../src/venue/ws/fastDecodeOracle.js';
import { fastDecodeOrderbook } from '../../../src/venue/ws/fastDecodeOrderbook.js';
import { tradesFrameSchema } from '../../../src/venue/schemas/wsFramesTrades.js';
import { fastDecodeTrades } from '../../../src/venue/ws/fastDecodeTrades.js';
import { decimal, field, holdEqual, id, marketId, nanos, nonNegInt, side } from './fastDecodeArbitraries.js';
import { oracleFrame, orderbookFrame } from './hotFrameArbitraries.js';

/**
 * The fast decoders must agree with the zod schemas on every frame: same decoded value when the
 * schema accepts, refusal when it refuses. Frames are generated valid, then each field is
 * sometimes replaced by arbitrary JSON or dropped, so both sides of every rule are exercised.
 */

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
    const seen = holdEqual(oracleFrame('mutated'), oracleFrameSchema, fastDecodeOracle, { anyKeyOrder: true });
    expect(seen.accepted).toBeGreaterThan(100);
    expect(seen.refused).toBeGreaterThan(100);
  });

  it('orderbook', () => {
    const seen = holdEqual(orderbookFrame('mutated'), orderbookFrameSchema, fastDecodeOrderbook, { anyKeyOrder: true });
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

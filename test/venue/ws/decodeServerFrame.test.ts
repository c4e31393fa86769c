import { describe, expect, it } from 'vitest';
import { decodeServerFrame } from '../../../src/venue/ws/decodeServerFrame.js';
import { SAMPLE_CHANNEL_FRAMES } from './sampleServerFrames.js';

/** The refusal a frame gets: the structured failure the drift monitor counts, and the reason in words. */
function failureOf(frame: unknown): unknown {
  const decoded = decodeServerFrame(typeof frame === 'string' ? frame : JSON.stringify(frame));
  if (decoded.kind !== 'malformed') throw new Error(`decoded as ${decoded.kind}`);
  expect(decoded.reason).toContain(decoded.failure.source);
  return decoded.failure;
}

function sample(channel: string): Record<string, unknown> {
  const found = SAMPLE_CHANNEL_FRAMES.find((f) => f['channel'] === channel);
  if (found === undefined) throw new Error(`no ${channel} sample`);
  return found;
}

describe('decodeServerFrame failures', () => {
  it('name the channel, the field, what was expected and what came, on the fast paths too', () => {
    const oracle = sample('oracle');
    expect(failureOf({ ...oracle, data: { prices: { '1': { mark_price: '65000.5' } }, timestamp: 1 } })).toMatchObject({
      source: 'ws:oracle',
      field: 'data.prices.1.mark_price',
      received: 'string "65000.5"',
    });
    const book = sample('orderbook');
    expect(failureOf({ ...book, checksum: -1 })).toMatchObject({ source: 'ws:orderbook', field: 'checksum' });
    expect(failureOf({ ...book, market_id: '2' })).toMatchObject({
      source: 'ws:orderbook',
      field: 'market_id',
      expected: 'the same market id as data.market_id',
    });
  });

  it('on the zod channels: trades, positions', () => {
    const trades = sample('trades');
    const data = trades['data'] as Record<string, unknown>;
    expect(failureOf({ ...trades, data: { ...data, maker_side: 2 } })).toMatchObject({
      source: 'ws:trades',
      field: 'data.maker_side',
      received: 'number 2',
    });
    const positions = sample('positions');
    expect(failureOf({ ...positions, data: [{ market_id: 1 }] })).toMatchObject({
      source: 'ws:positions',
      field: 'data.0.size',
      received: 'nothing (field absent)',
    });
  });

  it('on control frames and text that is no frame', () => {
    expect(failureOf('not json')).toMatchObject({ source: 'ws:control', field: '(frame)', expected: 'a JSON object' });
    expect(failureOf([1])).toMatchObject({ source: 'ws:control', received: 'array of 1' });
    expect(failureOf({ type: 'subscribed', status: 'maybe', channel: 'trades' })).toMatchObject({
      source: 'ws:control',
      field: 'status',
    });
    expect(failureOf({ hello: 'world' })).toMatchObject({ source: 'ws:control', field: '(frame)' });
    expect(failureOf({ channel: 'candles', type: 'update' })).toMatchObject({ source: 'ws:candles', field: 'channel' });
  });
});

describe('decodeServerFrame on the venue wire', () => {
  it('reads maker_side as 0/1, "0"/"1" or BUY/SELL, and fee_liquidation', () => {
    const trades = sample('trades');
    const data = trades['data'] as Record<string, unknown>;
    for (const [side, expected] of [
      [0, 'buy'],
      [1, 'sell'],
      ['0', 'buy'],
      ['1', 'sell'],
      ['BUY', 'buy'],
      ['SELL', 'sell'],
    ] as const) {
      const decoded = decodeServerFrame(JSON.stringify({ ...trades, data: { ...data, maker_side: side } }));
      if (decoded.kind !== 'channel' || decoded.message.channel !== 'trades') throw new Error(String(side));
      expect(decoded.message.trades[0]).toMatchObject({ makerSide: expected, feeLiquidation: '0', marketId: 1 });
    }
  });

  it('reads an order history record (id, sender, string enums) as an order record, "" client id as none', () => {
    const decoded = decodeServerFrame(
      JSON.stringify({
        channel: 'orders',
        type: 'update',
        worker_timestamp: '1',
        data: [
          {
            id: '0x0102',
            market_id: '1',
            sender: '0x1111111111111111111111111111111111111111',
            side: 'SELL',
            type: 'LIMIT',
            time_in_force: 'GTC',
            status: 'ORDER_STATUS_OPEN',
            price: '65000',
            size: '0.1',
            filled_size: '0',
            client_order_id: '',
            resting_order_id: '12',
            wide_order_id: '34',
          },
        ],
      }),
    );
    if (decoded.kind !== 'channel' || decoded.message.channel !== 'orders') throw new Error(JSON.stringify(decoded));
    const order = decoded.message.orders[0];
    expect(order).toMatchObject({ order_id: '0x0102', market_id: 1, side: 'sell', status: 'ORDER_STATUS_OPEN' });
    expect(order?.client_order_id).toBeUndefined();
  });

  it('ignores the extra keys of a positions frame (method, position_count) and reads a signed size', () => {
    const decoded = decodeServerFrame(
      JSON.stringify({
        channel: 'positions',
        type: 'snapshot',
        method: 'snapshot',
        position_count: 1,
        worker_timestamp: '1',
        data: [{ market_id: 2, size: '-0.020463', side: 'SELL', margin_mode: 0, leverage: '10' }],
      }),
    );
    if (decoded.kind !== 'channel' || decoded.message.channel !== 'positions') throw new Error(JSON.stringify(decoded));
    expect(decoded.message.positions[0]).toMatchObject({ market_id: 2, size: '-0.020463', side: 'sell' });
  });
});

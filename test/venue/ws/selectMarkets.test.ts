import { describe, expect, it } from 'vitest';
import { channelFrameSchemas } from '../../../src/venue/schemas/wsFrames.js';
import type { OracleMessage } from '../../../src/venue/schemas/wsFramesOracle.js';
import { selectMarkets } from '../../../src/venue/ws/selectMarkets.js';
import { oracleFrame, tradeFrame } from './scriptedVenue.js';

const ids = new Set([1, 3]);

describe('selectMarkets', () => {
  it('keeps only the wanted markets of an oracle message, and nothing when none is there', () => {
    const message = channelFrameSchemas.oracle.parse(
      oracleFrame(5, { '1': { mark_price: '1' }, '2': { mark_price: '2' }, '3': { index_price: '3' } }),
    );
    const selected = selectMarkets(message, ids) as OracleMessage;
    expect([...selected.prices.keys()]).toEqual([1, 3]);
    expect(selected.blockNumber).toBe(5);
    expect(selectMarkets(message, new Set([7]))).toBeUndefined();
  });

  it('hands on an oracle message whose markets are all wanted as it is, and an empty one to nobody', () => {
    const message = channelFrameSchemas.oracle.parse(
      oracleFrame(5, { '1': { mark_price: '1' }, '3': { mark_price: '3' } }),
    );
    expect(selectMarkets(message, ids)).toBe(message);
    expect(selectMarkets(channelFrameSchemas.oracle.parse(oracleFrame(6, {})), ids)).toBeUndefined();
  });

  it('filters trades, orders, positions and fills by market', () => {
    expect(selectMarkets(channelFrameSchemas.trades.parse(tradeFrame(2, 'x')), ids)).toBeUndefined();
    expect(selectMarkets(channelFrameSchemas.trades.parse(tradeFrame(3, 'y')), ids)).toMatchObject({
      trades: [{ id: 'y' }],
    });
    const orders = channelFrameSchemas.orders.parse({
      channel: 'orders',
      type: 'update',
      data: [
        { order_id: '0x1', market_id: 1, status: 'ORDER_STATUS_OPEN' },
        { order_id: '0x2', market_id: 2, status: 'ORDER_STATUS_OPEN' },
      ],
      worker_timestamp: '1',
    });
    expect(selectMarkets(orders, ids)).toMatchObject({ orders: [{ order_id: '0x1' }] });
    expect(selectMarkets(orders, new Set([9]))).toBeUndefined();
    const emptySnapshot = channelFrameSchemas.positions.parse({
      channel: 'positions',
      type: 'snapshot',
      data: [{ market_id: 2, size: '1' }],
      worker_timestamp: '1',
    });
    expect(selectMarkets(emptySnapshot, ids)).toMatchObject({ type: 'snapshot', positions: [] });
  });
});

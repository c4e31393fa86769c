import { describe, expect, it } from 'vitest';
import { CandleBuilder } from '../../src/strategy/candleBuilder.js';
import type { TradeView } from '../../src/strategy/strategyViews.js';

function trade(price: string, size: string): TradeView {
  return { marketId: 7, price, size, makerSide: 'sell', aggressorSide: 'buy', timeMs: 0 };
}

describe('candle builder', () => {
  it('gives nothing for an interval before any price is known, and still moves to the next interval', () => {
    const builder = new CandleBuilder(7, 60_000, 120_000, undefined);
    expect(builder.endMs).toBe(180_000);
    expect(builder.close()).toBeUndefined();
    expect(builder.endMs).toBe(240_000);
  });

  it('folds trades into open, high, low, close, exact volume and count', () => {
    const builder = new CandleBuilder(7, 60_000, 0, undefined);
    for (const [price, size] of [
      ['100', '0.1'],
      ['101.5', '0.2'],
      ['99.25', '0.05'],
      ['100.5', '1'],
    ] as const)
      builder.add(trade(price, size));
    expect(builder.close()).toEqual({
      marketId: 7,
      startMs: 0,
      intervalMs: 60_000,
      open: '100',
      high: '101.5',
      low: '99.25',
      close: '100.5',
      volume: '1.35',
      trades: 4,
    });
  });

  it('closes a quiet interval flat at the last close (a seed close at first), with volume 0', () => {
    const builder = new CandleBuilder(7, 1_000, 5_000, '42');
    expect(builder.close()).toEqual({
      marketId: 7,
      startMs: 5_000,
      intervalMs: 1_000,
      open: '42',
      high: '42',
      low: '42',
      close: '42',
      volume: '0',
      trades: 0,
    });
    builder.add(trade('43', '2'));
    expect(builder.close()?.close).toBe('43');
    expect(builder.close()).toMatchObject({ startMs: 7_000, open: '43', close: '43', volume: '0', trades: 0 });
  });
});

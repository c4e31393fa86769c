import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { candlesFrom, toTopOfBook } from '../../src/strategy/marketData.js';
import type { BookView, Candle, TopOfBook, TradeView } from '../../src/strategy/strategyViews.js';
import { VirtualTime } from '../../src/testing/virtualTime.js';

describe('top of book', () => {
  it('gives best bid and ask with spread and mid, only when the top changed', () => {
    const books = new Subject<BookView>();
    const tops: TopOfBook[] = [];
    books.pipe(toTopOfBook()).subscribe((t) => tops.push(t));
    books.next({
      marketId: 1,
      bids: [
        { price: '99.5', quantity: '1' },
        { price: '99', quantity: '3' },
      ],
      asks: [{ price: '100.5', quantity: '2' }],
    });
    books.next({
      marketId: 1,
      bids: [
        { price: '99.5', quantity: '1' },
        { price: '98', quantity: '3' },
      ],
      asks: [{ price: '100.5', quantity: '2' }],
    });
    books.next({ marketId: 1, bids: [], asks: [{ price: '100.5', quantity: '2' }] });
    expect(tops).toEqual([
      {
        marketId: 1,
        bestBid: { price: '99.5', quantity: '1' },
        bestAsk: { price: '100.5', quantity: '2' },
        spread: '1',
        mid: '100',
      },
      { marketId: 1, bestAsk: { price: '100.5', quantity: '2' } },
    ]);
  });
});

describe('candles from trades', () => {
  const trade = (price: string, size: string): TradeView => ({
    marketId: 1,
    price,
    size,
    makerSide: 'buy',
    aggressorSide: 'sell',
    timeMs: 0,
  });

  it('closes an OHLCV candle at each interval boundary, flat ones when nothing traded, on the given clock', async () => {
    const time = new VirtualTime(Date.UTC(2026, 0, 1, 0, 0, 30));
    const trades = new Subject<TradeView>();
    const candles: Candle[] = [];
    const subscription = candlesFrom(trades, { marketId: 1, intervalMs: 60_000, scheduler: time }).subscribe((c) =>
      candles.push(c),
    );
    trades.next(trade('100', '1'));
    trades.next(trade('103', '0.5'));
    trades.next(trade('99', '2'));
    trades.next(trade('101', '1'));
    await time.advance(30_000);
    expect(candles).toEqual([
      {
        marketId: 1,
        startMs: Date.UTC(2026, 0, 1),
        intervalMs: 60_000,
        open: '100',
        high: '103',
        low: '99',
        close: '101',
        volume: '4.5',
        trades: 4,
      },
    ]);
    await time.advance(60_000);
    expect(candles[1]).toMatchObject({
      open: '101',
      high: '101',
      low: '101',
      close: '101',
      volume: '0',
      trades: 0,
      startMs: Date.UTC(2026, 0, 1, 0, 1),
    });
    subscription.unsubscribe();
    await time.advance(600_000);
    expect(candles).toHaveLength(2);
    expect(time.pending).toBe(0);
  });

  it('emits seed candles first and continues from their close; nothing before a first price', async () => {
    const time = new VirtualTime(0);
    const candles: Candle[] = [];
    const empty = candlesFrom(new Subject<TradeView>(), { marketId: 1, intervalMs: 1_000, scheduler: time }).subscribe(
      (c) => candles.push(c),
    );
    await time.advance(5_000);
    expect(candles).toEqual([]);
    empty.unsubscribe();
    const seed: Candle = {
      marketId: 1,
      startMs: -1_000,
      intervalMs: 1_000,
      open: '5',
      high: '6',
      low: '4',
      close: '5.5',
      volume: '3',
      trades: 2,
    };
    candlesFrom(new Subject<TradeView>(), { marketId: 1, intervalMs: 1_000, scheduler: time, seed: [seed] }).subscribe(
      (c) => candles.push(c),
    );
    await time.advance(1_000);
    expect(candles.map((c) => c.close)).toEqual(['5.5', '5.5']);
    expect(() => candlesFrom(new Subject<TradeView>(), { marketId: 1, intervalMs: 0, scheduler: time })).toThrow(
      /interval/,
    );
  });
});

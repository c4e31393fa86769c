import { describe, expect, it } from 'vitest';
import { decimalToWei } from '../../../src/core/decimal.js';
import { Exchange } from '../../../src/sim/exchange/exchange.js';
import type { ExchangeEvent } from '../../../src/sim/exchange/exchangeEvents.js';
import { SYNTHETIC_MAKER_ACCOUNTS, SYNTHETIC_TAKER_ACCOUNT } from '../../../src/sim/exchange/syntheticMakers.js';
import { ALICE, T0, limit, ofType } from './exchangeFixture.js';

const run = (seed: number, blocks: number, options: Partial<ConstructorParameters<typeof Exchange>[0]> = {}) => {
  const ex = new Exchange({ seed, ...options });
  const events: ExchangeEvent[] = [];
  for (let b = 1; b <= blocks; b++) events.push(...ex.advanceBlock(b, T0 + b * 1000).events);
  return { ex, events };
};

describe('synthetic makers', () => {
  it('same seed → the same blocks, event for event; another seed differs', () => {
    const a = run(21, 30).events;
    expect(run(21, 30).events).toEqual(a);
    expect(run(22, 30).events).not.toEqual(a);
  });

  it('keep a two-sided book around the mark in every active market, none in the inactive one', () => {
    const { ex } = run(3, 20);
    for (const market of [1, 2, 3]) {
      const book = ex.book(market);
      const mark = decimalToWei(ex.markets()[market - 1]?.mark_price, 'mark');
      expect(book.bids.length).toBeGreaterThanOrEqual(3);
      expect(book.asks.length).toBeGreaterThanOrEqual(3);
      expect(decimalToWei(book.bids[0]?.price, 'bid') < mark).toBe(true);
      expect(decimalToWei(book.asks[0]?.price, 'ask') > mark).toBe(true);
    }
    expect(ex.book(4)).toEqual({ market_id: 4, bids: [], asks: [] });
  });

  it('produce trades, fills and an oracle update every block', () => {
    const { events } = run(3, 50);
    expect(ofType(events, 'oracle').map((e) => e.block_number)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    const trades = ofType(events, 'trade');
    expect(trades.length).toBeGreaterThan(5);
    expect(
      trades.every(
        (t) => t.trade.taker === SYNTHETIC_TAKER_ACCOUNT && SYNTHETIC_MAKER_ACCOUNTS.includes(t.trade.maker),
      ),
    ).toBe(true);
    expect(ofType(events, 'fill').length).toBe(trades.length * 2);
  });

  it('fill a user order left on the wrong side of the mark', () => {
    const ex = new Exchange({ seed: 3 });
    ex.deposit(ALICE, '100000');
    const stale = ex.placeOrder(ALICE, limit(0, 655_000, 20), T0).order;
    const events = ex.advanceBlock(1, T0 + 1000).events;
    const fill = ofType(events, 'fill').find((e) => e.account === ALICE)?.fill;
    expect(fill).toMatchObject({ order_id: stale.order_id, liquidity_indicator: 'MAKER', price: '65500' });
    expect(ex.order(stale.order_id)?.status).toBe('ORDER_STATUS_FILLED');
  });

  it('keep memory bounded over many blocks', () => {
    const ex = new Exchange({ seed: 8, terminalOrderRetention: 300 });
    let maxOpen = 0;
    for (let b = 1; b <= 400; b++) {
      ex.advanceBlock(b, T0 + b * 1000);
      maxOpen = Math.max(maxOpen, ex.orderCounts.open);
    }
    // 2 bots × 5 levels × 2 sides × 3 active markets.
    expect(maxOpen).toBeLessThanOrEqual(60);
    expect(ex.orderCounts.known).toBeLessThanOrEqual(300 + 60);
    for (const market of [1, 2, 3])
      expect(ex.book(market).bids.length + ex.book(market).asks.length).toBeLessThanOrEqual(20);
    // The churn really happened: order sequence numbers are far past what memory holds.
    ex.deposit(ALICE, '1000');
    expect(BigInt(ex.placeOrder(ALICE, limit(0, 100_000, 20), T0).order.resting_order_id)).toBeGreaterThan(3_000n);
  });

  it('leave good quotes alone: most survive a block, only a few levels change, yet the book moves', () => {
    const ex = new Exchange({ seed: 8 });
    const botOrders = () =>
      new Set(SYNTHETIC_MAKER_ACCOUNTS.flatMap((bot) => ex.openOrders(bot, 1).map((o) => o.order_id)));
    const levels = () => {
      const book = ex.book(1);
      return new Set([...book.bids, ...book.asks].map((l) => `${l.price}:${l.quantity}`));
    };
    for (let b = 1; b <= 5; b++) ex.advanceBlock(b, T0 + b * 1000);
    let survived = 0;
    let held = 0;
    let changedLevels = 0;
    const blocks = 100;
    for (let b = 6; b < 6 + blocks; b++) {
      const [orders, book] = [botOrders(), levels()];
      ex.advanceBlock(b, T0 + b * 1000);
      const after = botOrders();
      held += orders.size;
      survived += [...orders].filter((id) => after.has(id)).length;
      changedLevels += [...levels()].filter((l) => !book.has(l)).length;
      // Kept and fresh quotes stay strictly on their side of the mark.
      const mark = decimalToWei(ex.markets()[0]?.mark_price, 'mark');
      const { bids, asks } = ex.book(1);
      expect(
        bids.every((l) => decimalToWei(l.price, 'bid') < mark) &&
          asks.every((l) => decimalToWei(l.price, 'ask') > mark),
      ).toBe(true);
    }
    expect(survived / held).toBeGreaterThan(0.5);
    expect(changedLevels / blocks).toBeGreaterThan(1);
    expect(changedLevels / blocks).toBeLessThan(10);
  });

  it('can be switched off', () => {
    const { ex, events } = run(3, 10, { makers: false });
    expect(events.map((e) => e.type)).toEqual(new Array(10).fill('oracle'));
    expect(ex.book(1)).toEqual({ market_id: 1, bids: [], asks: [] });
  });
});

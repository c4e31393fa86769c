import { describe, expect, it } from 'vitest';
import { ALICE, BOB, CAROL, limit, market, ofType, quietExchange, T0 } from './exchangeFixture.js';

/** ALICE is the book account showing a recorded book; BOB and CAROL trade against it. */
describe('the recorded layer (Exchange.showRecorded)', () => {
  it('shows levels as book liquidity, resized in place and withdrawn at 0 steps', () => {
    const exchange = quietExchange();
    exchange.showRecorded(
      ALICE,
      1,
      [
        { side: 0, priceTicks: 1000, steps: 30 },
        { side: 1, priceTicks: 1002, steps: 20 },
      ],
      T0,
    );
    exchange.showRecorded(
      ALICE,
      1,
      [
        { side: 0, priceTicks: 1000, steps: 10 },
        { side: 1, priceTicks: 1002, steps: 0 },
        { side: 1, priceTicks: 1003, steps: 5 },
      ],
      T0,
    );
    const book = exchange.book(1);
    expect(book.bids.map((l) => [l.price, l.quantity, l.order_count])).toEqual([['100', '0.0001', 1]]);
    expect(book.asks.map((l) => [l.price, l.quantity, l.order_count])).toEqual([['100.3', '0.00005', 1]]);
  });

  it('is met by a taker in price-time priority, and keeps its place in the queue when resized', () => {
    const exchange = quietExchange();
    exchange.showRecorded(ALICE, 1, [{ side: 1, priceTicks: 1002, steps: 50 }], T0);
    exchange.placeOrder(BOB, limit(1, 1002, 50), T0);
    // Resized after BOB's order rested at its price: still ahead of it.
    exchange.showRecorded(ALICE, 1, [{ side: 1, priceTicks: 1002, steps: 80 }], T0);
    const taken = exchange.placeOrder(CAROL, market(0, 1002, 100), T0);
    const makers = ofType(taken.events, 'fill')
      .filter((e) => e.account !== CAROL)
      .map((e) => [e.account, e.fill.size]);
    expect(makers).toEqual([
      [ALICE, '0.0008'],
      [BOB, '0.0002'],
    ]);
  });

  it('keeps what a taker consumed until the level changes; a level consumed whole is shown anew, behind', () => {
    const exchange = quietExchange();
    exchange.showRecorded(ALICE, 1, [{ side: 1, priceTicks: 1002, steps: 50 }], T0);
    exchange.placeOrder(CAROL, market(0, 1002, 50), T0);
    expect(exchange.book(1).asks).toEqual([]);
    exchange.placeOrder(BOB, limit(1, 1002, 30), T0);
    exchange.showRecorded(ALICE, 1, [{ side: 1, priceTicks: 1002, steps: 40 }], T0);
    const taken = exchange.placeOrder(CAROL, market(0, 1002, 40), T0);
    // BOB's order rested before the level came back: it is first now.
    const makers = ofType(taken.events, 'fill')
      .filter((e) => e.account !== CAROL)
      .map((e) => [e.account, e.fill.size]);
    expect(makers).toEqual([
      [BOB, '0.0003'],
      [ALICE, '0.0001'],
    ]);
    expect(exchange.book(1).asks.map((l) => l.quantity)).toEqual(['0.0003']);
  });

  it('numbers each level shown anew as a resting order, so later orders get the ids they always had', () => {
    const exchange = quietExchange();
    exchange.showRecorded(
      ALICE,
      1,
      [
        { side: 0, priceTicks: 1000, steps: 1 },
        { side: 0, priceTicks: 999, steps: 1 },
      ],
      T0,
    );
    // Resized in place: no new number.
    exchange.showRecorded(ALICE, 1, [{ side: 0, priceTicks: 1000, steps: 2 }], T0);
    const placed = exchange.placeOrder(BOB, limit(1, 1010, 15), T0);
    expect(placed.order.resting_order_id).toBe('3');
  });

  it('keeps its orders out of the account index: no open orders listed, no order events', () => {
    const exchange = quietExchange();
    const shown = exchange.showRecorded(ALICE, 1, [{ side: 0, priceTicks: 1000, steps: 1 }], T0);
    expect(ofType(shown.events, 'order')).toEqual([]);
    expect(ofType(shown.events, 'book')).toEqual([{ type: 'book', market_id: 1 }]);
    expect(exchange.openOrders(ALICE)).toEqual([]);
  });

  it('refuses an unknown market and an unregistered account', () => {
    const exchange = quietExchange({}, [BOB]);
    expect(() => exchange.showRecorded(BOB, 99, [{ side: 0, priceTicks: 1, steps: 1 }], T0)).toThrow(/market 99/);
    expect(() => exchange.showRecorded(ALICE, 1, [{ side: 0, priceTicks: 1, steps: 1 }], T0)).toThrow(/registered/);
  });
});

import { describe, expect, it } from 'vitest';
import { bookDiff } from '../../../src/sim/exchange/bookDiff.js';
import { ALICE, BOB, T0, limit, quietExchange } from './exchangeFixture.js';

describe('bookDiff', () => {
  it('reports changed and new levels absolutely and deleted ones with quantity 0, in book order', () => {
    const ex = quietExchange();
    ex.placeOrder(ALICE, limit(0, 649_000, 20), T0);
    ex.placeOrder(ALICE, limit(0, 648_000, 20), T0);
    const gone = ex.placeOrder(ALICE, limit(1, 651_000, 20), T0).order;
    const before = ex.book(1);
    ex.placeOrder(BOB, limit(0, 649_000, 15), T0);
    ex.placeOrder(BOB, limit(0, 649_500, 30), T0);
    ex.placeOrder(BOB, limit(1, 652_000, 30), T0);
    ex.cancelOrder(ALICE, 1, BigInt(gone.resting_order_id));
    expect(bookDiff(before, ex.book(1))).toEqual({
      bids: [
        { price: '64950', quantity: '0.0003', order_count: 1 },
        { price: '64900', quantity: '0.00035', order_count: 2 },
      ],
      asks: [
        { price: '65100', quantity: '0', order_count: 0 },
        { price: '65200', quantity: '0.0003', order_count: 1 },
      ],
    });
  });

  it('is empty when nothing changed', () => {
    const ex = quietExchange();
    ex.placeOrder(ALICE, limit(0, 649_000, 20), T0);
    expect(bookDiff(ex.book(1), ex.book(1))).toEqual({ bids: [], asks: [] });
  });
});

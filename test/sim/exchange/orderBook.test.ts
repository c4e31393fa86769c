import { describe, expect, it } from 'vitest';
import { ALICE, BOB, CAROL, T0, limit, quietExchange } from './exchangeFixture.js';
import { orderbookChecksum } from '../../../src/protocol/orderbookChecksum.js';

describe('aggregated book', () => {
  it('levels sum remaining size and count orders; bids descending, asks ascending', () => {
    const ex = quietExchange();
    ex.placeOrder(ALICE, limit(0, 649_000, 20), T0);
    ex.placeOrder(BOB, limit(0, 649_500, 30), T0);
    ex.placeOrder(CAROL, limit(0, 649_000, 25), T0);
    ex.placeOrder(ALICE, limit(1, 651_000, 15), T0);
    ex.placeOrder(BOB, limit(1, 650_500, 40), T0);
    ex.placeOrder(CAROL, limit(0, 650_500, 15), T0); // partially fills BOB's ask
    const book = ex.book(1);
    expect(book.bids).toEqual([
      { price: '64950', quantity: '0.0003', order_count: 1 },
      { price: '64900', quantity: '0.00045', order_count: 2 },
    ]);
    expect(book.asks).toEqual([
      { price: '65050', quantity: '0.00025', order_count: 1 },
      { price: '65100', quantity: '0.00015', order_count: 1 },
    ]);
    expect(ex.book(1, 1).bids.length).toBe(1);
  });

  it('gives the checksum the same levels the client will rebuild', () => {
    const ex = quietExchange();
    ex.placeOrder(ALICE, limit(0, 649_000, 20), T0);
    ex.placeOrder(ALICE, limit(1, 651_000, 15), T0);
    const { bids, asks } = ex.book(1);
    expect(orderbookChecksum(bids, asks)).toBe(orderbookChecksum([{ price: '64900', quantity: '0.0002' }], [{ price: '65100', quantity: '0.00015' }]));
  });

  it('removing the last order of a level removes the level', () => {
    const ex = quietExchange();
    const a = ex.placeOrder(ALICE, limit(0, 649_000, 20), T0).order;
    ex.placeOrder(ALICE, limit(0, 648_000, 20), T0);
    ex.cancelOrder(ALICE, 1, BigInt(a.resting_order_id));
    expect(ex.book(1).bids.map((l) => l.price)).toEqual(['64800']);
  });
});

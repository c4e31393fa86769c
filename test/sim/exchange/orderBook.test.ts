import { describe, expect, it } from 'vitest';
import { ALICE, BOB, CAROL, T0, limit, quietExchange } from './exchangeFixture.js';
import { orderbookChecksum } from '../../../src/protocol/orderbookChecksum.js';
import { OrderBook } from '../../../src/sim/exchange/orderBook.js';
import type { SimOrder } from '../../../src/sim/exchange/simOrder.js';

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
    expect(orderbookChecksum(bids, asks)).toBe(
      orderbookChecksum([{ price: '64900', quantity: '0.0002' }], [{ price: '65100', quantity: '0.00015' }]),
    );
  });

  it('removing the last order of a level removes the level', () => {
    const ex = quietExchange();
    const a = ex.placeOrder(ALICE, limit(0, 649_000, 20), T0).order;
    ex.placeOrder(ALICE, limit(0, 648_000, 20), T0);
    ex.cancelOrder(ALICE, 1, BigInt(a.resting_order_id));
    expect(ex.book(1).bids.map((l) => l.price)).toEqual(['64800']);
  });
});

describe('OrderBook.expiringCount', () => {
  it('counts resting GTT orders as they rest, fill, cancel and expire, so the expiry sweep can skip a book without any', () => {
    const book = new OrderBook();
    const order = (sequence: number, expiresAtMs?: number): SimOrder => ({
      sequence: BigInt(sequence),
      wide: BigInt(sequence) << 1n,
      orderId: `0x${sequence}`,
      account: ALICE,
      marketId: 1,
      side: 0,
      sizeSteps: 10,
      priceTicks: 100 + sequence,
      orderType: 1,
      timeInForce: expiresAtMs === undefined ? 0 : 1,
      postOnly: false,
      reduceOnly: false,
      stpMode: 0,
      ...(expiresAtMs === undefined ? {} : { expiresAtMs }),
      filledSteps: 0,
      status: 'ORDER_STATUS_OPEN',
    });
    const gtc = order(1);
    const gtt = order(2, T0 + 1_000);
    book.add(gtc);
    expect(book.expiringCount).toBe(0);
    book.add(gtt);
    expect(book.expiringCount).toBe(1);
    expect(book.remove(gtt)).toBe(true);
    expect(book.remove(gtt)).toBe(false);
    expect(book.expiringCount).toBe(0);
  });

  it('an expired GTT order still leaves the book on the next place after an all-GTC stretch', () => {
    const ex = quietExchange();
    ex.placeOrder(ALICE, limit(0, 649_000, 20), T0);
    ex.placeOrder(ALICE, limit(0, 648_000, 20, { time_in_force: 1, ttl_units: 1 }), T0);
    ex.placeOrder(BOB, limit(1, 660_000, 20), T0 + 60_000);
    expect(ex.book(1).bids.map((l) => l.price)).toEqual(['64900']);
  });
});

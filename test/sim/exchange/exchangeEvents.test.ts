import { describe, expect, it } from 'vitest';
import { Exchange } from '../../../src/sim/exchange/exchange.js';
import { ALICE, BOB, CAROL, T0, limit, market, ofType, quietExchange } from './exchangeFixture.js';

describe('events', () => {
  it('a block starts with the oracle update carrying every market in wei, as oraclePrices() reads it', () => {
    const ex = new Exchange({ seed: 12, makers: false });
    const [first, ...rest] = ex.advanceBlock(1, T0).events;
    expect(first).toEqual({ type: 'oracle', block_number: 1, timestamp_ms: T0, prices: ex.oraclePrices() });
    expect(Object.keys(ex.oraclePrices())).toEqual(['1', '2', '3', '4']);
    expect(rest).toEqual([]);
  });

  it('cancel-all reports each cancelled order and one book change', () => {
    const ex = quietExchange();
    ex.placeOrder(ALICE, limit(0, 640_000, 20), T0);
    ex.placeOrder(ALICE, limit(1, 660_000, 20), T0);
    ex.placeOrder(BOB, limit(1, 661_000, 20), T0);
    const result = ex.cancelAll(ALICE, 1);
    expect(result.events.map((e) => e.type)).toEqual(['order', 'order', 'book']);
    expect(
      ofType(result.events, 'order').every((e) => e.account === ALICE && e.order.status === 'ORDER_STATUS_CANCELLED'),
    ).toBe(true);
    expect(result.cancelled.map((o) => o.side)).toEqual([0, 1]);
    expect(ex.openOrders(BOB).length).toBe(1);
  });

  it('a resting order reports itself OPEN and changes the book; a refused one reports nothing', () => {
    const ex = quietExchange();
    const placed = ex.placeOrder(ALICE, limit(0, 640_000, 20, { client_order_id: 5n }), T0);
    expect(placed.events.map((e) => e.type)).toEqual(['order', 'book']);
    expect(ofType(placed.events, 'order')[0]?.order).toEqual(placed.order);
    expect(placed.order).toMatchObject({
      market_id: 1,
      account: ALICE,
      side: 0,
      size_steps: 20,
      price_ticks: 640_000,
      order_type: 1,
      time_in_force: 0,
      post_only: false,
      reduce_only: false,
      client_order_id: '5',
      status: 'ORDER_STATUS_OPEN',
      filled_size: '0',
    });
    expect(placed.filled_quantity).toBe('0');
    expect(placed.filled_percent).toBe(0);
  });

  it('an IOC that trades against two makers reports both maker updates and each fill in order', () => {
    const ex = quietExchange();
    const first = ex.placeOrder(BOB, limit(1, 650_000, 20), T0).order;
    const second = ex.placeOrder(BOB, limit(1, 650_010, 20), T0).order;
    const taker = ex.placeOrder(ALICE, limit(0, 650_010, 30, { time_in_force: 3 }), T0);
    expect(taker.events.map((e) => e.type)).toEqual([
      'trade',
      'fill',
      'fill',
      'order',
      'trade',
      'fill',
      'fill',
      'order',
      'order',
      'position',
      'position',
      'balance',
      'balance',
      'book',
    ]);
    expect(ofType(taker.events, 'order').map((e) => [e.order.order_id, e.order.status, e.order.filled_steps])).toEqual([
      [first.order_id, 'ORDER_STATUS_FILLED', 20],
      [second.order_id, 'ORDER_STATUS_OPEN', 10],
      [taker.order.order_id, 'ORDER_STATUS_FILLED', 30],
    ]);
    expect(ofType(taker.events, 'trade').map((e) => e.trade.id)).toEqual(['1', '2']);
    expect(ofType(taker.events, 'fill').map((e) => e.fill.id)).toEqual(['1', '2', '3', '4']);
  });

  it("a placement's answer is the record of its order as it ended, whichever way it ended", () => {
    const ex = quietExchange();
    const placements = [
      () => ex.placeOrder(ALICE, limit(0, 640_000, 20), T0), // rests
      () => ex.placeOrder(BOB, limit(1, 660_000, 20, { client_order_id: 9n }), T0), // rests
      () => ex.placeOrder(BOB, limit(1, 640_000, 15), T0), // fills whole against Alice's bid
      () => ex.placeOrder(CAROL, limit(1, 639_000, 30, { time_in_force: 3 }), T0), // IOC: fills 5, rest cancelled
      () => ex.placeOrder(ALICE, limit(0, 670_000, 20, { post_only: true }), T0 + 1), // would cross: refused
      () => ex.placeOrder(CAROL, market(0, 700_000, 15), T0 + 2), // market order: fills against Bob's ask
      () => ex.placeOrder(ALICE, limit(0, 600_000, 20, { time_in_force: 2 }), T0 + 3), // FOK, nothing to take: cancelled
    ];
    let answered = 0;
    const refusals: string[] = [];
    for (const place of placements) {
      let result;
      try {
        result = place();
      } catch (error) {
        refusals.push((error as Error).message);
        continue;
      }
      answered += 1;
      const order = result.order;
      // The same record the order reads give once the placement is over, and its last order event.
      expect(order).toEqual(ex.order(order.order_id));
      const own = result.events.filter((e) => e.type === 'order' && e.order.order_id === order.order_id);
      expect(own.at(-1)).toMatchObject({ order });
    }
    expect(refusals).toEqual([expect.stringMatching(/PostOnlyWouldCross/)]);
    expect(answered).toBe(6);
  });
});

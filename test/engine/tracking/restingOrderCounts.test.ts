import { describe, expect, it } from 'vitest';
import { ForeignOrders } from '../../../src/engine/tracking/foreignOrders.js';
import { RestingOrderCounts } from '../../../src/engine/tracking/restingOrderCounts.js';
import { trackedOrder, type OrderState, type TrackedOrder } from '../../../src/engine/orders/trackedOrder.js';

function order(marketId: number, state: OrderState): TrackedOrder {
  return trackedOrder({ intentId: 'i', strategy: 's', marketId, side: 'sell', size: '1', price: '10' }, state, '0');
}

describe('RestingOrderCounts', () => {
  it('counts an order while it rests (open, partially filled) and not before or after', () => {
    const counts = new RestingOrderCounts();
    const none = new ForeignOrders();
    counts.onChange(undefined, order(1, 'submitted'));
    expect(counts.withForeign(none)).toEqual(new Map());
    counts.onChange(order(1, 'submitted'), order(1, 'open'));
    counts.onChange(order(1, 'open'), order(1, 'partially_filled'));
    counts.onChange(undefined, order(2, 'open'));
    expect(counts.withForeign(none)).toEqual(
      new Map([
        [1, 1],
        [2, 1],
      ]),
    );
    counts.onChange(order(1, 'partially_filled'), order(1, 'filled'));
    expect(counts.withForeign(none)).toEqual(new Map([[2, 1]]));
  });

  it('adds the foreign orders per market, on a copy', () => {
    const counts = new RestingOrderCounts();
    counts.onChange(undefined, order(1, 'open'));
    const foreign = new ForeignOrders();
    foreign.open('0xa', 1, 5n);
    foreign.open('0xb', 3, undefined);
    const seen = counts.withForeign(foreign);
    expect(seen).toEqual(
      new Map([
        [1, 2],
        [3, 1],
      ]),
    );
    seen.set(1, 99);
    expect(counts.withForeign(new ForeignOrders())).toEqual(new Map([[1, 1]]));
  });
});

describe('ForeignOrders', () => {
  it('keeps what a snapshot lists, with resting ids for cancels', () => {
    const foreign = new ForeignOrders();
    foreign.open('0xa', 1, 5n);
    foreign.open('0xb', 2, undefined);
    foreign.open('0xc', 2, 7n);
    expect(foreign.restingIdOf('0xa')).toBe(5n);
    expect(foreign.restingIdOf('0xb')).toBeUndefined();
    foreign.forget('0xa');
    foreign.keepOnly(new Set(['0xb', '0xz']));
    expect(foreign.list()).toEqual([{ orderId: '0xb', marketId: 2 }]);
    expect(foreign.restingIdOf('0xc')).toBeUndefined();
  });
});

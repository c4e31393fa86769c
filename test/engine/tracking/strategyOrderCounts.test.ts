import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isResting } from '../../../src/engine/orders/trackedOrder.js';
import { OrderTracker } from '../../../src/engine/tracking/orderTracker.js';
import type { OrderRecord } from '../../../src/venue/schemas/wsFramesPrivate.js';

/** One step of an order's life as the engine and the venue drive the tracker. */
type Step =
  | {
      readonly kind: 'queue';
      readonly n: number;
      readonly strategy: string;
      readonly marketId: number;
      readonly market: boolean;
    }
  | {
      readonly kind: 'submit' | 'place' | 'askCancel' | 'dropCancel' | 'cancelled' | 'unknown' | 'filled';
      readonly n: number;
    };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('queue' as const),
    n: fc.nat(7),
    strategy: fc.constantFrom('a', 'b'),
    marketId: fc.constantFrom(1, 2),
    market: fc.boolean(),
  }),
  fc.record({
    kind: fc.constantFrom('submit', 'place', 'askCancel', 'dropCancel', 'cancelled', 'unknown', 'filled'),
    n: fc.nat(7),
  }),
);

const orderIdOf = (n: number): string => `0x${(0xf000 + n).toString(16).padStart(18, '0')}`;

function run(tracker: OrderTracker, s: Step): void {
  const intentId = `i-${s.n}`;
  const order = tracker.order(intentId);
  if (s.kind === 'queue') {
    if (order !== undefined) return;
    const { strategy, marketId, market } = s;
    tracker.queued({
      intentId,
      strategy,
      marketId,
      side: 'buy',
      size: '1',
      price: '10',
      ...(market ? { market } : {}),
    });
    return;
  }
  if (order === undefined) return;
  const orderId = orderIdOf(s.n);
  const record = (status: OrderRecord['status']): OrderRecord => ({
    order_id: orderId,
    market_id: order.marketId,
    status,
  });
  if (s.kind === 'submit') tracker.submitted(order);
  else if (s.kind === 'place') tracker.placed(intentId, orderId);
  else if (s.kind === 'askCancel') tracker.requestCancel(intentId);
  else if (s.kind === 'dropCancel') tracker.cancelDropped(orderId);
  else if (s.kind === 'cancelled') tracker.cancelled(orderId);
  else if (s.kind === 'unknown') tracker.settle(intentId, 'unknown');
  else tracker.onOrderRecords([record('ORDER_STATUS_FILLED')], false);
}

/** The counts walked from the open orders, as the budgets and the quote uptime did before the counts. */
function walked(tracker: OrderTracker, strategy: string, marketId: number) {
  const open = tracker.openOrders({ strategy, marketId });
  const wantedOrders = open.filter((o) => o.market !== true && !tracker.cancelRequested(o.intentId));
  return {
    wanted: wantedOrders.length,
    held: wantedOrders.filter((o) => isResting(o.state)).length,
    onVenue: open.filter((o) => isResting(o.state) || o.state === 'unknown').length,
  };
}

describe('StrategyOrderCounts (kept by the tracker as orders change)', () => {
  it('equal, after any sequence of order changes and cancel asks, what walking the open orders counts', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const tracker = new OrderTracker();
        for (const s of steps) {
          run(tracker, s);
          for (const strategy of ['a', 'b'])
            for (const marketId of [1, 2]) {
              const expected = walked(tracker, strategy, marketId);
              const { wanted, held } = tracker.orderCounts.wanted(strategy, marketId);
              expect({ wanted, held, onVenue: tracker.orderCounts.onVenue(strategy).get(marketId) ?? 0 }).toEqual(
                expected,
              );
            }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('moves its revision whenever an open order of the strategy and market changes, or a cancel asked of one', () => {
    /** What a reader of the pair's open orders can see of them. */
    const seen = (tracker: OrderTracker, strategy: string, marketId: number): string =>
      JSON.stringify(
        tracker
          .openOrders({ strategy, marketId })
          .map((o) => [o.intentId, o.state, o.price, o.size, o.filledSize, tracker.cancelRequested(o.intentId)]),
      );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const tracker = new OrderTracker();
        for (const s of steps) {
          const pairs = ['a', 'b'].flatMap((strategy) => [1, 2].map((marketId) => ({ strategy, marketId })));
          const before = pairs.map(({ strategy, marketId }) => ({
            seen: seen(tracker, strategy, marketId),
            revision: tracker.orderCounts.revision(strategy, marketId),
          }));
          run(tracker, s);
          pairs.forEach(({ strategy, marketId }, i) => {
            if (seen(tracker, strategy, marketId) !== before[i]!.seen)
              expect(tracker.orderCounts.revision(strategy, marketId)).not.toBe(before[i]!.revision);
          });
        }
      }),
      { numRuns: 300 },
    );
  });

  it('an order asked to cancel is no longer wanted; the cancel dropped, it is again', () => {
    const tracker = new OrderTracker();
    tracker.queued({ intentId: 'i-1', strategy: 'a', marketId: 1, side: 'buy', size: '1', price: '10' });
    tracker.submitted(tracker.order('i-1')!);
    tracker.placed('i-1', orderIdOf(1));
    expect(tracker.orderCounts.wanted('a', 1)).toEqual({ wanted: 1, held: 1 });
    tracker.requestCancel('i-1');
    expect(tracker.orderCounts.wanted('a', 1)).toEqual({ wanted: 0, held: 0 });
    expect(tracker.orderCounts.onVenue('a')).toEqual(new Map([[1, 1]]));
    tracker.cancelDropped(orderIdOf(1));
    expect(tracker.orderCounts.wanted('a', 1)).toEqual({ wanted: 1, held: 1 });
  });
});

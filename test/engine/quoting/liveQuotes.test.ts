import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { placeLimit } from '../../../src/engine/intents/intentBuilders.js';
import { LivePlacements } from '../../../src/engine/quoting/livePlacements.js';
import { LiveQuotes } from '../../../src/engine/quoting/liveQuotes.js';
import { planQuotes, type WantedQuote } from '../../../src/engine/quoting/quotePlan.js';
import { RetiringOrders } from '../../../src/engine/quoting/retiringOrders.js';
import { OrderTracker } from '../../../src/engine/tracking/orderTracker.js';

const GRID = { tick: '0.1', step: '0.001' };

/** One change to what a quote target reads of the live orders: the tracker's, the placements', the retiring set's. */
type Step = {
  readonly kind:
    | 'queue'
    | 'submit'
    | 'place'
    | 'askCancel'
    | 'dropCancel'
    | 'cancelled'
    | 'fill'
    | 'retire'
    | 'move'
    | 'release'
    | 'forget';
  readonly n: number;
  readonly side: 'buy' | 'sell';
  readonly ticks: number;
};

const step: fc.Arbitrary<Step> = fc.record({
  kind: fc.constantFrom(
    'queue',
    'submit',
    'place',
    'askCancel',
    'dropCancel',
    'cancelled',
    'fill',
    'retire',
    'move',
    'release',
    'forget',
  ),
  n: fc.nat(5),
  side: fc.constantFrom('buy', 'sell'),
  ticks: fc.integer({ min: 995, max: 1005 }),
});

const orderIdOf = (n: number): string => `0x${(0xf000 + n).toString(16).padStart(18, '0')}`;

interface World {
  readonly tracker: OrderTracker;
  readonly placements: LivePlacements;
  readonly retiring: RetiringOrders;
}

function run({ tracker, placements, retiring }: World, s: Step): void {
  const intentId = `i-${s.n}`;
  const order = tracker.order(intentId);
  const orderId = orderIdOf(s.n);
  if (s.kind === 'queue') {
    if (order !== undefined) return;
    const price = (s.ticks / 10).toFixed(1);
    const spec = { intentId, strategy: 'a', marketId: 1, side: s.side, size: '0.01', price };
    // The strategy's own terms, off the tick and rounded up: a read without them counts another tick.
    placements.remember(placeLimit({ ...spec, price: `${price}5`, priceRounding: 'up' }));
    tracker.queued(spec);
  } else if (s.kind === 'retire' || s.kind === 'move') retiring.retire(intentId, s.kind === 'move');
  else if (s.kind === 'release') retiring.release(intentId);
  else if (s.kind === 'forget') placements.forget(intentId);
  else if (order === undefined) return;
  else if (s.kind === 'submit') tracker.submitted(order);
  else if (s.kind === 'place') tracker.placed(intentId, orderId);
  else if (s.kind === 'askCancel') tracker.requestCancel(intentId);
  else if (s.kind === 'dropCancel') tracker.cancelDropped(orderId);
  else if (s.kind === 'cancelled') tracker.cancelled(orderId);
  else
    tracker.onOrderRecords(
      [{ order_id: orderId, market_id: 1, status: 'ORDER_STATUS_OPEN', filled_size: '0.004' }],
      false,
    );
}

const wanted = (bid: number, ask: number): WantedQuote[] => [
  { index: 0, side: 'buy', ticks: BigInt(bid), steps: 10n, toleranceTicks: 2n },
  { index: 1, side: 'sell', ticks: BigInt(ask), steps: 10n, toleranceTicks: 2n },
];

describe('LiveQuotes (the live orders a quote target is planned against, read again once they change)', () => {
  it('plans, after any changes, what a fresh read of the live orders plans', () => {
    // The same wanted objects again and again (a target stated unchanged), and a new one now and then.
    const targets = [wanted(999, 1001), wanted(1003, 1006)];
    fc.assert(
      fc.property(fc.array(fc.tuple(step, fc.nat(2)), { maxLength: 50 }), (steps) => {
        const world = { tracker: new OrderTracker(), placements: new LivePlacements(), retiring: new RetiringOrders() };
        const kept = new LiveQuotes(world);
        for (const [s, pick] of steps) {
          run(world, s);
          const w = targets[pick] ?? wanted(990 + s.ticks - 1000, 1010);
          const fresh = new LiveQuotes(world).plan('a', 1, GRID, w);
          expect(kept.plan('a', 1, GRID, w)).toEqual(fresh);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('reads the live orders once while nothing changes, and again after any change', () => {
    const world = { tracker: new OrderTracker(), placements: new LivePlacements(), retiring: new RetiringOrders() };
    const live = new LiveQuotes(world);
    world.tracker.queued({ intentId: 'i-1', strategy: 'a', marketId: 1, side: 'buy', size: '0.01', price: '99.9' });
    const target = wanted(999, 1001);
    const first = live.plan('a', 1, GRID, target);
    expect(first).toEqual({ keep: [{ live: 'i-1', wanted: 0 }], replace: [], place: [1], cancel: [] });
    expect(live.plan('a', 1, GRID, target)).toBe(first);
    world.retiring.retire('i-1', false);
    expect(live.plan('a', 1, GRID, target)).toEqual({ keep: [], replace: [], place: [0, 1], cancel: [] });
    expect(planQuotes(target, [])).toEqual(live.plan('a', 1, GRID, target));
  });
});

import { describe, expect, it } from 'vitest';
import { checkTransition, ORDER_TRANSITIONS } from '../../../src/engine/orders/orderStateMachine.js';
import { OrderTracker } from '../../../src/engine/tracking/orderTracker.js';
import type { OrderState } from '../../../src/engine/tracking/trackedOrder.js';

const STATES: readonly OrderState[] = [
  'queued',
  'pending',
  'unknown',
  'open',
  'partially_filled',
  'filled',
  'cancelled',
  'refused',
  'failed',
];

/** The table as the issue reads it: each row, what it allows. */
const EXPECTED: Record<OrderState, readonly OrderState[]> = {
  queued: ['pending', 'cancelled', 'refused', 'failed'],
  pending: ['open', 'partially_filled', 'filled', 'cancelled', 'refused', 'failed', 'unknown'],
  unknown: ['open', 'partially_filled', 'filled', 'cancelled', 'refused', 'failed'],
  open: ['partially_filled', 'filled', 'cancelled'],
  partially_filled: ['partially_filled', 'filled', 'cancelled'],
  filled: [],
  cancelled: [],
  refused: [],
  failed: [],
};

describe('the order state machine', () => {
  it('has a row for every state', () => {
    expect(Object.keys(ORDER_TRANSITIONS).sort()).toEqual([...STATES].sort());
  });

  for (const from of STATES) {
    it(`from ${from}: allows ${EXPECTED[from].join(', ') || 'nothing'}, refuses the rest`, () => {
      for (const to of STATES) {
        const verdict = checkTransition(from, to);
        if (to === from || EXPECTED[from].includes(to)) expect(verdict, `${from} -> ${to}`).toBeUndefined();
        else
          expect(verdict, `${from} -> ${to}`).toEqual({
            from,
            to,
            reason: expect.stringMatching(
              EXPECTED[from].length === 0 ? /has ended: nothing follows/ : /can only become/,
            ),
          });
      }
    });
  }

  it('lets a new order start wherever a report first shows it', () => {
    for (const to of STATES) expect(checkTransition(undefined, to)).toBeUndefined();
  });
});

describe('the tracker applies the table', () => {
  it('refuses a change the table does not allow, writes nothing, and says so', () => {
    const refused: string[] = [];
    const tracker = new OrderTracker(
      () => 0,
      (r, intentId) => refused.push(`${intentId}: ${r.from} -> ${r.to}`),
    );
    const events: string[] = [];
    tracker.events$.subscribe((e) => events.push(e.type));
    tracker.queued({ intentId: 'a', strategy: 's', marketId: 1, side: 'buy', size: '1', price: '100' });
    // Unknown means sent without a definite answer: an order still queued was never sent.
    tracker.settle('a', 'unknown');
    expect(tracker.order('a')?.state).toBe('queued');
    expect(events).toEqual(['queued']);
    expect(refused).toEqual(['a: queued -> unknown']);
    // The allowed way on is unaffected.
    tracker.pending({ intentId: 'a', strategy: 's', marketId: 1, side: 'buy', size: '1', price: '100' });
    tracker.settle('a', 'unknown');
    expect(events).toEqual(['queued', 'submitted', 'unknown']);
  });
});

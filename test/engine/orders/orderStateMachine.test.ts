import { describe, expect, it } from 'vitest';
import {
  applyOrderEvent,
  checkTransition,
  ORDER_TRANSITIONS,
  type AppliedOrderEvent,
} from '../../../src/engine/orders/orderStateMachine.js';
import type { OrderModelEvent } from '../../../src/engine/orders/orderModelEvent.js';
import { trackedOrder, type TrackedOrder } from '../../../src/engine/orders/trackedOrder.js';
import { OrderTracker } from '../../../src/engine/tracking/orderTracker.js';
import type { OrderState } from '../../../src/engine/orders/trackedOrder.js';

const STATES: readonly OrderState[] = [
  'queued',
  'submitted',
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
  queued: ['submitted', 'cancelled', 'refused', 'failed'],
  submitted: ['open', 'partially_filled', 'filled', 'cancelled', 'refused', 'failed', 'unknown'],
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
    tracker.submitted({ intentId: 'a', strategy: 's', marketId: 1, side: 'buy', size: '1', price: '100' });
    tracker.settle('a', 'unknown');
    expect(events).toEqual(['queued', 'submitted', 'unknown']);
  });
});

const SPEC = { intentId: 'a', strategy: 's', marketId: 1, side: 'buy' as const, size: '2', price: '100' };

function at(state: OrderState, filledSize = '0', orderId: string | undefined = '0xab'): TrackedOrder {
  return trackedOrder(SPEC, state, filledSize, orderId);
}

/** The state and filled size an event leads to, `unchanged`, or the refusal's text. */
function outcome(applied: AppliedOrderEvent): string {
  if (applied.kind === 'unchanged') return 'unchanged';
  if (applied.kind === 'refused') return `refused: ${applied.refusal.reason}`;
  return `${applied.order.state} ${applied.order.filledSize}`;
}

describe('applyOrderEvent: what each event makes of an order', () => {
  const cases: [string, TrackedOrder | undefined, OrderModelEvent, string][] = [
    ['a new intent is queued', undefined, { type: 'queued', order: SPEC }, 'queued 0'],
    ['a second queued changes nothing', at('queued'), { type: 'queued', order: SPEC }, 'unchanged'],
    [
      'admission submits a queued order',
      at('queued', '0', undefined),
      { type: 'submitted', order: SPEC },
      'submitted 0',
    ],
    [
      'an order already on the venue is not submitted again',
      at('open'),
      { type: 'submitted', order: SPEC },
      'unchanged',
    ],
    ['a cancel while queued ends it', at('queued', '0', undefined), { type: 'cancelled_while_queued' }, 'cancelled 0'],
    [
      'a cancel while queued misses a submitted order',
      at('submitted'),
      { type: 'cancelled_while_queued' },
      'unchanged',
    ],
    [
      'the venue accepts a submitted order',
      at('submitted', '0', undefined),
      { type: 'accepted', orderId: '0x01' },
      'open 0',
    ],
    [
      'an acceptance never moves a filled order back',
      at('filled', '2'),
      { type: 'accepted', orderId: '0x01' },
      'filled 2',
    ],
    ['a send with no answer', at('submitted'), { type: 'send_ended', state: 'unknown' }, 'unknown 0'],
    ['a send refused while queued is refused', at('queued'), { type: 'send_ended', state: 'refused' }, 'refused 0'],
    [
      'a send that ended after the venue had it changes nothing',
      at('open'),
      { type: 'send_ended', state: 'failed' },
      'unchanged',
    ],
    [
      'a queued order was never sent, so its fate cannot be unknown',
      at('queued'),
      { type: 'send_ended', state: 'unknown' },
      'refused: an order queued can only become submitted, cancelled, refused, failed',
    ],
    ['a cancel accepted', at('partially_filled', '1'), { type: 'cancel_accepted' }, 'cancelled 1'],
    ['a cancel accepted after the fill changes nothing', at('filled', '2'), { type: 'cancel_accepted' }, 'unchanged'],
    [
      'the venue reports it resting with a fill',
      at('open'),
      { type: 'venue_reported', status: 'ORDER_STATUS_OPEN', filledSize: '1' },
      'partially_filled 1',
    ],
    [
      'a report of less filled than seen keeps the larger',
      at('partially_filled', '1.5'),
      { type: 'venue_reported', status: 'ORDER_STATUS_OPEN', filledSize: '1' },
      'partially_filled 1.5',
    ],
    [
      'a late report of an ended order only learns the filled size',
      at('cancelled', '1'),
      { type: 'venue_reported', status: 'ORDER_STATUS_OPEN', filledSize: '1.5' },
      'cancelled 1.5',
    ],
    [
      'a resting order the venue no longer knows is refused',
      at('open'),
      { type: 'venue_reported', status: 'ORDER_STATUS_NONE' },
      'refused: an order open can only become partially_filled, filled, cancelled',
    ],
    ['left the book part filled: cancelled', at('partially_filled', '1'), { type: 'left_book' }, 'cancelled 1'],
    ['left the book all filled: filled', at('open', '2'), { type: 'left_book' }, 'filled 2'],
    ['only a resting order leaves the book', at('submitted'), { type: 'left_book' }, 'unchanged'],
    ['fills summing to part of it', at('open'), { type: 'filled_by', fillSum: '0.5' }, 'partially_filled 0.5'],
    ['fills summing to all of it', at('partially_filled', '1'), { type: 'filled_by', fillSum: '2' }, 'filled 2'],
    [
      'a fill before the placement answer',
      at('submitted', '0', undefined),
      { type: 'filled_by', fillSum: '1' },
      'partially_filled 1',
    ],
    [
      'a fill of an ended order changes nothing',
      at('cancelled', '1'),
      { type: 'filled_by', fillSum: '2' },
      'unchanged',
    ],
    ['no event but queued or submitted starts an order', undefined, { type: 'filled_by', fillSum: '1' }, 'unchanged'],
  ];
  for (const [name, order, event, expected] of cases)
    it(name, () => expect(outcome(applyOrderEvent(order, event))).toBe(expected));

  it('keeps the ids the venue gave: resting id from the order id, once', () => {
    const applied = applyOrderEvent(at('submitted', '0', undefined), {
      type: 'accepted',
      orderId: '0x0000000000000006ffff',
    });
    expect(applied).toMatchObject({ kind: 'moved', order: { orderId: '0x0000000000000006ffff', restingOrderId: 3n } });
  });

  it("takes a submitted order's kind from its queued self", () => {
    const queued = trackedOrder({ ...SPEC, market: true, expires: true }, 'queued', '0');
    const applied = applyOrderEvent(queued, { type: 'submitted', order: { ...SPEC, clientOrderId: 9n } });
    expect(applied).toMatchObject({ kind: 'moved', order: { market: true, expires: true, clientOrderId: 9n } });
  });
});

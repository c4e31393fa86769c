import { describe, expect, it } from 'vitest';
import {
  applyOrderEvent,
  checkTransition,
  INFERRED_CORRECTIONS,
  ORDER_TRANSITIONS,
  type AppliedOrderEvent,
} from '../../../src/engine/orders/orderStateMachine.js';
import type { InferenceCause, OrderModelEvent } from '../../../src/engine/orders/orderModelEvent.js';
import type { OrderRecord } from '../../../src/venue/schemas/wsFramesPrivate.js';
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

/** The moves out of the table reconciliation's evidence may make, per cause (`INFERRED_CORRECTIONS`). */
const EXPECTED_CORRECTIONS: Record<InferenceCause, Partial<Record<OrderState, readonly OrderState[]>>> = {
  order_history: { cancelled: ['filled'] },
  trade_history: { cancelled: ['filled'] },
  journaled_fills: { cancelled: ['filled'] },
  nonce_state: {},
  venue_open_orders: { cancelled: ['open', 'partially_filled'] },
  position: { open: ['unknown'], partially_filled: ['unknown'], cancelled: ['filled', 'unknown'] },
};

describe('the corrections only what reconciliation read may make', () => {
  it('has a row for every cause', () => {
    expect(Object.keys(INFERRED_CORRECTIONS).sort()).toEqual(Object.keys(EXPECTED_CORRECTIONS).sort());
  });

  for (const [cause, row] of Object.entries(EXPECTED_CORRECTIONS) as [
    InferenceCause,
    (typeof EXPECTED_CORRECTIONS)[InferenceCause],
  ][]) {
    const listed = Object.entries(row).map(([from, to]) => `${from} -> ${to.join(' | ')}`);
    it(`per ${cause}: allows ${listed.join(', ') || 'nothing beyond the table'}; a live event may not; the rest is refused`, () => {
      for (const from of STATES)
        for (const to of STATES) {
          const corrected = row[from]?.includes(to) === true;
          const allowed = from === to || EXPECTED[from].includes(to) || corrected;
          const verdict = checkTransition(from, to, cause);
          if (allowed) expect(verdict, `${from} -> ${to} per ${cause}`).toBeUndefined();
          else expect(verdict, `${from} -> ${to} per ${cause}`).toMatchObject({ from, to });
          if (corrected) expect(checkTransition(from, to), `${from} -> ${to} live`).toBeDefined();
        }
    });
  }
});

const history = (status: OrderRecord['status'], filledSize: string): OrderModelEvent => ({
  type: 'history_recorded',
  cause: 'order_history',
  status,
  filledSize,
  orderId: '0xab',
});
const fills = (cause: 'trade_history' | 'journaled_fills', fillSum: string): OrderModelEvent => ({
  type: 'fills_counted',
  cause,
  fillSum,
});
const resting = (order?: typeof SPEC): OrderModelEvent => ({
  type: 'found_resting',
  cause: 'venue_open_orders',
  orderId: '0x0000000000000006ffff',
  order,
});
const judged = (verdict: 'filled' | 'cancelled' | 'untold'): OrderModelEvent => ({
  type: 'position_judged',
  cause: 'position',
  verdict,
});

describe('applyOrderEvent: what reconciliation infers, applied by the same model', () => {
  const ended = (state: OrderState, cause: InferenceCause) =>
    `refused: an order ${state} has ended: nothing follows (not even per ${cause})`;
  const cases: [string, TrackedOrder | undefined, OrderModelEvent, string][] = [
    ['closed per order history: filled', at('open', '1'), history('ORDER_STATUS_FILLED', '2'), 'filled 2'],
    [
      'closed per order history corrects a cancel inferred while its fills were unseen',
      at('cancelled', '1'),
      history('ORDER_STATUS_FILLED', '2'),
      'filled 2',
    ],
    [
      'closed per order history: cancelled, with the larger filled size',
      at('partially_filled', '1'),
      history('ORDER_STATUS_CANCELLED', '0.5'),
      'cancelled 1',
    ],
    [
      'a placement in flight, found resting in the order history with a fill',
      at('submitted', '0', undefined),
      history('ORDER_STATUS_OPEN', '0.5'),
      'partially_filled 0.5',
    ],
    [
      'a record still open does not reopen an ended order',
      at('cancelled'),
      history('ORDER_STATUS_OPEN', '0'),
      'unchanged',
    ],
    [
      'a filled order is not cancelled per order history',
      at('filled', '2'),
      history('ORDER_STATUS_CANCELLED', '2'),
      ended('filled', 'order_history'),
    ],
    ['filled per trade history', at('open'), fills('trade_history', '2'), 'filled 2'],
    ['fills of part of it per trade history', at('open'), fills('trade_history', '0.5'), 'partially_filled 0.5'],
    ['fills after the cancel: all of it, filled', at('cancelled', '1'), fills('journaled_fills', '2'), 'filled 2'],
    [
      'fills after the cancel: part of it, cancelled with what filled',
      at('cancelled', '0.5'),
      fills('journaled_fills', '1'),
      'cancelled 1',
    ],
    ['fills no more than seen change nothing', at('partially_filled', '1'), fills('trade_history', '1'), 'unchanged'],
    ['fills of a refused order change nothing', at('refused'), fills('trade_history', '2'), 'unchanged'],
    [
      'not executed per nonce state',
      at('submitted', '0', undefined),
      { type: 'not_executed', cause: 'nonce_state' },
      'failed 0',
    ],
    ['not executed per order history', at('unknown'), { type: 'not_executed', cause: 'order_history' }, 'failed 0'],
    [
      'an order resting on the venue was executed',
      at('open'),
      { type: 'not_executed', cause: 'nonce_state' },
      'refused: an order open can only become partially_filled, filled, cancelled',
    ],
    ['resting on the venue: a placement in flight is open', at('submitted', '0', undefined), resting(), 'open 0'],
    ['resting on the venue with a fill seen', at('unknown', '0.5'), resting(), 'partially_filled 0.5'],
    ['resting on the venue corrects a cancel the model inferred', at('cancelled'), resting(), 'open 0'],
    ['resting on the venue, unknown to us: adopted', undefined, resting(SPEC), 'open 0'],
    ['unknown to us and no one adopts it: nothing starts', undefined, resting(), 'unchanged'],
    ['a filled order does not rest again', at('filled', '2'), resting(), ended('filled', 'venue_open_orders')],
    ['a failed order does not rest', at('failed'), resting(), ended('failed', 'venue_open_orders')],
    ['the position says it filled its remainder', at('open', '0.5'), judged('filled'), 'filled 2'],
    ['the position says it filled nothing more', at('partially_filled', '0.5'), judged('cancelled'), 'cancelled 0.5'],
    ['the position cannot tell which: unknown', at('open'), judged('untold'), 'unknown 0'],
    ['the position corrects a cancel the model inferred', at('cancelled'), judged('filled'), 'filled 2'],
    ['the position does not undo a fill', at('filled', '2'), judged('untold'), ended('filled', 'position')],
  ];
  for (const [name, order, event, expected] of cases)
    it(name, () => expect(outcome(applyOrderEvent(order, event))).toBe(expected));

  it('learns the ids the venue shows: an adopted order carries its order id and resting id', () => {
    expect(applyOrderEvent(undefined, resting(SPEC))).toMatchObject({
      kind: 'moved',
      order: { intentId: 'a', orderId: '0x0000000000000006ffff', restingOrderId: 3n, state: 'open' },
    });
    expect(applyOrderEvent(at('submitted', '0', undefined), history('ORDER_STATUS_FILLED', '2'))).toMatchObject({
      kind: 'moved',
      order: { orderId: '0xab', state: 'filled' },
    });
  });
});

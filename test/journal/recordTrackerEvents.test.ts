import { Subject } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { OrderTracker } from '../../src/engine/tracking/orderTracker.js';
import type { Journal } from '../../src/journal/journal.js';
import { openJournal } from '../../src/journal/openJournal.js';
import { journalFillLedger } from '../../src/journal/journalFillLedger.js';
import { recordTrackerEvents } from '../../src/journal/recordTrackerEvents.js';
import { restoreTracker } from '../../src/journal/restoreTracker.js';

const ACCOUNT = '0x00000000000000000000000000000000000000aa';
const ORDER_ID = `0x${'00000000000000a2'}${'ab'.repeat(24)}`;
const fill = (id: string, size: string) => ({
  id,
  market_id: 1,
  order_id: ORDER_ID,
  side: 'buy' as const,
  price: '100',
  size,
  fee: '0.01',
  time: 1n,
  liquidity_indicator: 'MAKER' as const,
});

describe('recordTrackerEvents and restoreTracker', () => {
  let journal: Journal;
  beforeEach(() => {
    journal = openJournal(':memory:');
  });
  afterEach(() => journal.close());

  /** As the bot wires it: the journal is the tracker's fill ledger and follows its events. */
  function followed(tracker: OrderTracker, positionsChanged = new Subject<unknown>()) {
    const clock = new ManualClock(5);
    tracker.useFillLedger(journalFillLedger(journal, ACCOUNT, clock));
    return recordTrackerEvents(
      journal,
      ACCOUNT,
      {
        orders$: tracker.orders$,
        fills$: tracker.fills$,
        positionsChanged$: positionsChanged,
        allPositions: () => tracker.allPositions(),
        causeOf: (order) => tracker.causeOf(order),
        infer: (intentId, event) => tracker.infer(intentId, event),
      },
      clock,
    );
  }

  it('journals order changes, fills once, and a position only when it changes', () => {
    const tracker = new OrderTracker();
    const positions = new Subject<unknown>();
    const subscription = followed(tracker, positions);
    tracker.submitted({
      intentId: 'i1',
      strategy: 's',
      marketId: 1,
      side: 'buy',
      size: '0.002',
      price: '100',
      clientOrderId: 9n,
    });
    tracker.placed('i1', ORDER_ID);
    tracker.onFill(fill('f1', '0.001'));
    tracker.onFill(fill('f1', '0.001'));
    tracker.onPositions([{ market_id: 1, size: '0.001', side: 'buy' }]);
    positions.next(undefined);
    positions.next(undefined);
    tracker.onPositions([{ market_id: 1, size: '0', side: 'buy' }]);
    positions.next(undefined);
    subscription.unsubscribe();

    expect(journal.order('i1')).toMatchObject({
      orderId: ORDER_ID,
      state: 'partially_filled',
      filledSize: '0.001',
      clientOrderId: '9',
    });
    expect(journal.db.prepare('SELECT state FROM order_states ORDER BY id').all()).toEqual([
      { state: 'submitted' },
      { state: 'open' },
      { state: 'partially_filled' },
    ]);
    expect(journal.recentFills(10).map((f) => [f.fillId, f.intentId, f.source])).toEqual([['f1', 'i1', 'venue']]);
    expect(journal.db.prepare("SELECT size FROM positions WHERE source = 'venue' ORDER BY id").all()).toEqual([
      { size: '0.001' },
      { size: '0' },
    ]);
  });

  it('corrects an order a snapshot closed as cancelled when its fills arrive after', () => {
    const tracker = new OrderTracker();
    const subscription = followed(tracker);
    tracker.submitted({ intentId: 'ioc', strategy: 's', marketId: 1, side: 'buy', size: '0.002', price: '100' });
    tracker.placed('ioc', ORDER_ID);
    tracker.onOrderRecords([], true);
    expect(journal.order('ioc')?.state).toBe('cancelled');
    tracker.onFill(fill('f1', '0.001'));
    expect(journal.order('ioc')).toMatchObject({ state: 'cancelled', filledSize: '0.001' });
    tracker.onFill(fill('f2', '0.001'));
    subscription.unsubscribe();
    // The tracker's model moved it (per the journaled fills), and the journal recorded that.
    expect(tracker.order('ioc')).toMatchObject({ state: 'filled', filledSize: '0.002' });
    expect(journal.order('ioc')).toMatchObject({ state: 'filled', filledSize: '0.002' });
    expect(
      journal.db.prepare("SELECT state, source FROM order_states WHERE intent_id = 'ioc' ORDER BY id").all(),
    ).toEqual([
      { state: 'submitted', source: 'engine' },
      { state: 'open', source: 'engine' },
      { state: 'cancelled', source: 'engine' },
      { state: 'cancelled', source: 'journaled_fills' },
      { state: 'filled', source: 'journaled_fills' },
    ]);
  });

  it("corrects the journal's own record of an ended order the tracker does not hold", () => {
    journal.recordOrder(
      ACCOUNT,
      {
        intentId: 'old',
        strategy: 's',
        marketId: 1,
        side: 'buy',
        size: '0.002',
        price: '100',
        orderId: ORDER_ID,
        state: 'cancelled',
        filledSize: '0',
      },
      'engine',
      1,
    );
    const tracker = new OrderTracker();
    const subscription = followed(tracker);
    tracker.onFill(fill('f1', '0.002'));
    subscription.unsubscribe();
    expect(tracker.order('old')).toBeUndefined();
    expect(journal.order('old')).toMatchObject({ state: 'filled', filledSize: '0.002' });
  });

  it('journals what a reconciliation inferred of an order the tracker holds, with its cause as the source', () => {
    const tracker = new OrderTracker();
    const clock = new ManualClock(5);
    tracker.useFillLedger(journalFillLedger(journal, ACCOUNT, clock));
    const subscription = recordTrackerEvents(
      journal,
      ACCOUNT,
      {
        orders$: tracker.orders$,
        fills$: tracker.fills$,
        positionsChanged$: new Subject<unknown>(),
        allPositions: () => tracker.allPositions(),
        causeOf: (order) => tracker.causeOf(order),
      },
      clock,
    );
    tracker.submitted({ intentId: 'left', strategy: 's', marketId: 1, side: 'buy', size: '0.002', price: '100' });
    tracker.placed('left', ORDER_ID);
    // A snapshot that no longer lists it closes it, its fills unseen; the order history says filled.
    tracker.onOrderRecords([], true);
    const applied = tracker.infer('left', {
      type: 'history_recorded',
      cause: 'order_history',
      status: 'ORDER_STATUS_FILLED',
      filledSize: '0.002',
      orderId: ORDER_ID,
    });
    expect(tracker.infer('not-held', { type: 'not_executed', cause: 'nonce_state' })).toBeUndefined();
    subscription.unsubscribe();
    expect(applied).toMatchObject({ kind: 'moved', order: { state: 'filled', filledSize: '0.002' } });
    expect(tracker.order('left')?.state).toBe('filled');
    expect(journal.order('left')).toMatchObject({ state: 'filled', filledSize: '0.002' });
    expect(journal.db.prepare('SELECT state, source FROM order_states ORDER BY id').all()).toEqual([
      { state: 'submitted', source: 'engine' },
      { state: 'open', source: 'engine' },
      { state: 'cancelled', source: 'engine' },
      { state: 'filled', source: 'order_history' },
    ]);
  });

  it('gives a new tracker the resting orders of the journal, linked to their intents', () => {
    const before = new OrderTracker();
    const subscription = followed(before);
    before.submitted({
      intentId: 'rest',
      strategy: 's',
      marketId: 1,
      side: 'buy',
      size: '0.002',
      price: '100',
      clientOrderId: 9n,
    });
    before.placed('rest', ORDER_ID);
    before.onFill(fill('f1', '0.001'));
    before.submitted({ intentId: 'gone', strategy: 's', marketId: 1, side: 'sell', size: '0.002', price: '120' });
    before.settle('gone', 'refused');
    subscription.unsubscribe();

    const after = new OrderTracker();
    expect(restoreTracker(after, journal, ACCOUNT)).toBe(1);
    expect(after.order('rest')).toMatchObject({
      strategy: 's',
      orderId: ORDER_ID,
      clientOrderId: 9n,
      state: 'partially_filled',
      filledSize: '0.001',
    });
    expect(after.order('gone')).toBeUndefined();
    expect(after.orderByOrderId(ORDER_ID.toUpperCase().replace('0X', '0x'))?.intentId).toBe('rest');
    expect(after.foreignOrders()).toEqual([]);
  });
});

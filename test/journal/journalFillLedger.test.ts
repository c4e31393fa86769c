import { Subject } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { memoryFillLedger } from '../../src/engine/tracking/fillLedger.js';
import { OrderTracker, type TrackedFill } from '../../src/engine/tracking/orderTracker.js';
import { journalHistoryFill } from '../../src/journal/historyFills.js';
import { reconciledFillId, type Journal } from '../../src/journal/journal.js';
import { journalFillLedger } from '../../src/journal/journalFillLedger.js';
import { openJournal } from '../../src/journal/openJournal.js';
import { recordTrackerEvents } from '../../src/journal/recordTrackerEvents.js';
import { restoreTracker } from '../../src/journal/restoreTracker.js';
import type { FillRecord } from '../../src/venue/schemas/wsFramesPrivate.js';

const ACCOUNT = '0x00000000000000000000000000000000000000aa';
const ORDER_ID = `0x${'00000000000000a2'}${'ab'.repeat(24)}`;
const fill = (id: string, size: string): FillRecord => ({
  id,
  market_id: 1,
  order_id: ORDER_ID,
  side: 'buy',
  price: '100',
  size,
  fee: '0.01',
  time: 1n,
  liquidity_indicator: 'MAKER',
});

/**
 * One key (the venue's fill id) and one place that decides (the journal's fills table, which the
 * tracker asks through its ledger): a fill is counted once whichever way and however often it comes.
 */
describe('fills counted once across the fills channel, trade history and restarts', () => {
  let journal: Journal;
  const clock = new ManualClock(5);
  beforeEach(() => {
    journal = openJournal(':memory:');
  });
  afterEach(() => journal.close());

  /** A tracker wired as the bot wires it, with an order i1 of 0.002 resting; returns what it publishes. */
  function wired(tracker = new OrderTracker()) {
    tracker.useFillLedger(journalFillLedger(journal, ACCOUNT, clock));
    const counted: TrackedFill[] = [];
    tracker.fills$.subscribe((f) => counted.push(f));
    const subscription = recordTrackerEvents(
      journal,
      ACCOUNT,
      {
        orders$: tracker.orders$,
        fills$: tracker.fills$,
        positionsChanged$: new Subject(),
        allPositions: () => tracker.allPositions(),
      },
      clock,
    );
    return { tracker, counted, subscription };
  }
  const place = (tracker: OrderTracker) => {
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
  };
  const rows = () => journal.recentFills(10).map((f) => [f.fillId, f.source, f.size, f.intentId]);

  it('a fill from the channel, then the same fill from history (or again from the channel): counted once', () => {
    const { tracker, counted } = wired();
    place(tracker);
    expect(tracker.onFill(fill('f1', '0.001'))?.intentId).toBe('i1');
    expect(tracker.onFill(fill('f1', '0.001'), 'history')).toBeUndefined();
    // A resend after a 5xx that had executed: the venue still made one fill, delivered again.
    expect(tracker.onFill(fill('f1', '0.001'))).toBeUndefined();
    expect(counted.map((f) => f.id)).toEqual(['f1']);
    expect(tracker.order('i1')).toMatchObject({ state: 'partially_filled', filledSize: '0.001' });
    expect(rows()).toEqual([['f1', 'venue', '0.001', 'i1']]);
  });

  it('a fill from history, then the same fill on the channel: counted once, journaled as history', () => {
    const { tracker, counted } = wired();
    place(tracker);
    expect(tracker.onFill(fill('f1', '0.002'), 'history')?.intentId).toBe('i1');
    expect(tracker.onFill(fill('f1', '0.002'))).toBeUndefined();
    expect(counted.map((f) => f.id)).toEqual(['f1']);
    expect(tracker.order('i1')).toMatchObject({ state: 'filled', filledSize: '0.002' });
    expect(rows()).toEqual([['f1', 'history', '0.002', 'i1']]);
    expect(journal.order('i1')).toMatchObject({ state: 'filled', filledSize: '0.002' });
  });

  it('a fill journaled from history at a start is not counted again when the next run hears it on the channel', () => {
    // The previous run rested i1; at this start the reconciliation journaled f1 from history.
    const before = wired();
    place(before.tracker);
    before.subscription.unsubscribe();
    expect(journalHistoryFill(journal, ACCOUNT, fill('f1', '0.001'), 6)).toBe(true);
    expect(journalHistoryFill(journal, ACCOUNT, fill('f1', '0.001'), 7)).toBe(false);
    expect(journal.order('i1')).toMatchObject({ state: 'partially_filled', filledSize: '0.001' });

    const after = wired();
    expect(restoreTracker(after.tracker, journal, ACCOUNT)).toBe(1);
    expect(after.tracker.onFill(fill('f1', '0.001'))).toBeUndefined();
    expect(after.counted).toEqual([]);
    expect(after.tracker.order('i1')).toMatchObject({ state: 'partially_filled', filledSize: '0.001' });
    expect(rows()).toEqual([['f1', 'history', '0.001', 'i1']]);
  });

  it('a real fill from history takes its size off the inferred fill of its order', () => {
    journal.recordFill(
      ACCOUNT,
      { id: reconciledFillId(ORDER_ID), marketId: 1, orderId: ORDER_ID, side: 'buy', price: '100', size: '0.002' },
      'reconciled',
      1,
    );
    journalHistoryFill(journal, ACCOUNT, fill('f1', '0.0005'), 2);
    expect(journal.fillsOfOrder(ACCOUNT, ORDER_ID).map((f) => [f.source, f.size])).toEqual([
      ['reconciled', '0.0015'],
      ['history', '0.0005'],
    ]);
  });

  it('without a journal the tracker remembers a bounded number of ids', () => {
    const ledger = memoryFillLedger(2);
    const f = (id: string): TrackedFill => ({
      id,
      marketId: 1,
      orderId: ORDER_ID,
      side: 'buy',
      price: '1',
      size: '1',
      fee: '0',
      liquidity: 'MAKER',
    });
    expect([
      ledger.record(f('a'), 'venue'),
      ledger.record(f('a'), 'history'),
      ledger.record(f('b'), 'venue'),
      ledger.record(f('c'), 'venue'),
    ]).toEqual([true, false, true, true]);
    // The oldest was forgotten; the two newest are still known.
    expect([ledger.record(f('b'), 'venue'), ledger.record(f('c'), 'venue'), ledger.record(f('a'), 'venue')]).toEqual([
      false,
      false,
      true,
    ]);
  });
});

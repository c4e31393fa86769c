import { describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { storedOrder } from '../../src/engine/orders/storedOrder.js';
import type { Journal } from '../../src/journal/journal.js';
import type { InFlightIntent, JournalOrder } from '../../src/journal/journalRows.js';
import type { ReconcileOptions } from '../../src/journal/reconcileOptions.js';
import type { ReconciliationInputs } from '../../src/journal/reconciliationInputs.js';
import { ReconciliationRun } from '../../src/journal/reconciliationRun.js';

const ACCOUNT = '0x00000000000000000000000000000000000000aa';
const ORDER_ID = `0x${'00000000000000a2'}${'ab'.repeat(24)}`;
const AT_MS = 1_700_000_000_000;
const order: JournalOrder = {
  intentId: 'i1',
  account: ACCOUNT,
  strategy: 's',
  marketId: 1,
  side: 'buy',
  size: '1',
  price: '100',
  orderId: ORDER_ID,
  state: 'open',
  filledSize: '0',
  updatedMs: 1,
};
const inFlight: InFlightIntent = {
  intentId: 'i1',
  runId: 'r0',
  strategy: 's',
  kind: 'placeLimit',
  marketId: 1,
  receivedMs: 1,
  intent: {},
  requests: [],
};

function run(apply: boolean, history: ReconciliationInputs['history'] = { available: false, reason: 'HTTP 404' }) {
  const journal = { recordOrder: vi.fn(), recordOutcome: vi.fn() };
  const options = {
    journal: journal as unknown as Journal,
    account: ACCOUNT,
    trigger: 'reconnect',
    apply,
    clock: new ManualClock(AT_MS),
  } as unknown as ReconcileOptions;
  const inputs = { history, balance: { venue: '10' } } as unknown as ReconciliationInputs;
  return { journal, run: new ReconciliationRun(options, inputs, AT_MS) };
}

describe('ReconciliationRun', () => {
  it('writes to the journal only when it applies what it finds, what the order model made of it', () => {
    const filledPerHistory = {
      type: 'history_recorded',
      cause: 'order_history',
      status: 'ORDER_STATUS_FILLED',
      filledSize: '1',
      orderId: ORDER_ID,
    } as const;
    const reportOnly = run(false);
    expect(reportOnly.run.applyEvent(storedOrder(order), filledPerHistory)).toMatchObject({ state: 'filled' });
    reportOnly.run.recordOutcome(inFlight, { type: 'accepted' });
    expect(reportOnly.journal.recordOrder).not.toHaveBeenCalled();
    expect(reportOnly.journal.recordOutcome).not.toHaveBeenCalled();

    const applying = run(true);
    applying.run.applyEvent(storedOrder(order), filledPerHistory);
    // Nothing changes: nothing is written.
    applying.run.applyEvent(storedOrder(order), { type: 'fills_counted', cause: 'journaled_fills', fillSum: '0' });
    applying.run.recordOutcome(inFlight, { type: 'accepted', orderId: '0x01' });
    expect(applying.journal.recordOrder.mock.calls).toEqual([
      [ACCOUNT, expect.objectContaining({ intentId: 'i1', state: 'filled', filledSize: '1' }), 'order_history', AT_MS],
    ]);
    expect(applying.journal.recordOutcome).toHaveBeenCalledWith({
      intentId: 'i1',
      strategy: 's',
      kind: 'placeLimit',
      marketId: 1,
      atMs: AT_MS,
      type: 'accepted',
      orderId: '0x01',
    });
  });

  it("applies what it infers of an order the engine holds through the engine's tracker, not the journal", () => {
    const applying = run(true);
    const infer = vi.fn((intentId: string) =>
      intentId === 'i1'
        ? ({ kind: 'moved', order: storedOrder({ ...order, state: 'cancelled' }) } as const)
        : undefined,
    );
    const live = new ReconciliationRun({ ...applying.run.options, live: { infer } }, applying.run.inputs, AT_MS);
    const event = { type: 'position_judged', cause: 'position', verdict: 'cancelled' } as const;
    expect(live.applyEvent(storedOrder(order), event).state).toBe('cancelled');
    expect(infer).toHaveBeenCalledWith('i1', event);
    expect(applying.journal.recordOrder).not.toHaveBeenCalled();
    // An order it does not hold: the journal's record takes the event.
    live.applyEvent(storedOrder({ ...order, intentId: 'i2' }), event);
    expect(applying.journal.recordOrder.mock.calls).toEqual([
      [ACCOUNT, expect.objectContaining({ intentId: 'i2', state: 'cancelled' }), 'position', AT_MS],
    ]);
  });

  it('reports an inferred event the order model refuses, and writes nothing', () => {
    const applying = run(true);
    const filled = storedOrder({ ...order, state: 'filled', filledSize: '1' });
    expect(
      applying.run.applyEvent(filled, { type: 'found_resting', cause: 'venue_open_orders', orderId: ORDER_ID }),
    ).toBe(filled);
    expect(applying.journal.recordOrder).not.toHaveBeenCalled();
    expect(applying.run.differences).toEqual([
      {
        type: 'order_event_refused',
        intentId: 'i1',
        event: 'found_resting',
        cause: 'venue_open_orders',
        from: 'filled',
        to: 'partially_filled',
        reason: 'an order filled has ended: nothing follows (not even per venue_open_orders)',
      },
    ]);
  });

  it('is ok until a permit could still land, then reports the latest time to look again', () => {
    const { run: r } = run(true);
    expect(r.report()).toEqual({
      trigger: 'reconnect',
      ok: true,
      differences: [],
      balance: { venue: '10' },
      toCancel: [],
      historyUnavailable: 'HTTP 404',
      atMs: AT_MS,
    });
    r.pendingUntil(AT_MS + 5_000);
    r.pendingUntil(AT_MS + 2_000);
    expect(r.ok).toBe(false);
    expect(r.report()).toMatchObject({ ok: false, retryAtMs: AT_MS + 5_000 });
  });

  it('labels what the position judged with why the order history did not settle it', () => {
    expect(run(true).run.inferred).toBe('inferred: history unavailable (HTTP 404)');
    const available = {
      available: true as const,
      fills: [],
      order: () => undefined,
      byClientOrderId: () => undefined,
    };
    const r = run(true, available).run;
    expect(r.inferred).toBe("inferred: not in the venue's order history");
    expect(r.report()).not.toHaveProperty('historyUnavailable');
  });
});

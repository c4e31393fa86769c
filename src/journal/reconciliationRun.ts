import type { IntentOutcome } from '../engine/intents/intentOutcome.js';
import type { IntentKind } from '../engine/intents/intents.js';
import type { InferredOrderEvent } from '../engine/orders/orderModelEvent.js';
import type { TrackedOrder } from '../engine/orders/trackedOrder.js';
import { applyToJournal } from './journalOrderEvents.js';
import type { InFlightIntent } from './journalRows.js';
import type { ReconcileOptions } from './reconcileOptions.js';
import type { Difference, ReconciliationReport } from './reconciliationReport.js';
import type { ReconciliationInputs } from './reconciliationInputs.js';

/**
 * An order whose fate neither the book nor the order history told: an order that left the book
 * unobserved, or an in-flight placement that executed (or may have); the position judges it.
 */
export interface Candidate {
  readonly order: TrackedOrder;
  readonly orderId: string;
  readonly inFlight?: InFlightIntent;
  /** For an in-flight intent: whether its nonce shows it executed, or the venue no longer says. */
  readonly fate?: 'executed' | 'unknowable';
}

/**
 * The shared state of one reconciliation: what it read, what it has found so far (the report's
 * differences, the candidates left for the position to judge, the orders to cancel), and its
 * journal writes, which only a run that applies what it finds makes. What it infers of an order
 * is an event the order model applies (`applyEvent`); the journal records the result.
 */
export class ReconciliationRun {
  readonly differences: Difference[] = [];
  readonly candidates: Candidate[] = [];
  /** Intents already dealt with: an in-flight intent's order is not judged again as an order. */
  readonly handled = new Set<string>();
  readonly toCancel: { orderId: string; marketId: number }[] = [];
  /** How a judgement by the position is labelled: why the order history did not settle it. */
  readonly inferred: string;
  private pendingUntilMs: number | undefined;

  constructor(
    readonly options: ReconcileOptions,
    readonly inputs: ReconciliationInputs,
    readonly atMs: number,
  ) {
    this.inferred = inputs.history.available
      ? "inferred: not in the venue's order history"
      : `inferred: history unavailable (${inputs.history.reason})`;
  }

  /** False once something is left that trading must not run over. */
  get ok(): boolean {
    return this.pendingUntilMs === undefined;
  }

  /** A permit that could still land until `retryAtMs`: the run is not ok, and says when to look again. */
  pendingUntil(retryAtMs: number): void {
    this.pendingUntilMs = Math.max(this.pendingUntilMs ?? 0, retryAtMs);
  }

  /**
   * The order the model makes of `order` on what the run inferred (journaled when the run applies):
   * the given order when the event changes nothing or the model refuses it (reported as a difference).
   */
  applyEvent(order: TrackedOrder, event: InferredOrderEvent): TrackedOrder;
  applyEvent(order: TrackedOrder | undefined, event: InferredOrderEvent): TrackedOrder | undefined;
  applyEvent(order: TrackedOrder | undefined, event: InferredOrderEvent): TrackedOrder | undefined {
    const { journal, account, apply, live } = this.options;
    // An order the engine holds goes through its tracker, whose changes the journal records.
    const held = order === undefined || !apply ? undefined : live?.infer(order.intentId, event);
    const applied = held ?? applyToJournal(journal, account, order, event, this.atMs, apply);
    if (applied.kind === 'moved') return applied.order;
    if (applied.kind === 'refused' && order !== undefined) {
      const { from, to, reason } = applied.refusal;
      this.differences.push({
        type: 'order_event_refused',
        intentId: order.intentId,
        event: event.type,
        cause: event.cause,
        from,
        to,
        reason,
      });
    }
    return order;
  }

  /** The terminal outcome of an in-flight intent. */
  recordOutcome(f: InFlightIntent, rest: Partial<IntentOutcome> & Pick<IntentOutcome, 'type'>): void {
    if (!this.options.apply) return;
    this.options.journal.recordOutcome({
      intentId: f.intentId,
      strategy: f.strategy,
      kind: f.kind as IntentKind,
      marketId: f.marketId,
      atMs: this.atMs,
      ...rest,
    } as IntentOutcome);
  }

  report(): ReconciliationReport {
    const { history, balance } = this.inputs;
    return {
      trigger: this.options.trigger,
      ok: this.ok,
      differences: this.differences,
      balance,
      toCancel: this.toCancel,
      ...(this.pendingUntilMs === undefined ? {} : { retryAtMs: this.pendingUntilMs }),
      ...(history.available ? {} : { historyUnavailable: history.reason }),
      atMs: this.atMs,
    };
  }
}

import type { Refusal } from './refusal.js';
import type { IntentKind } from './intents.js';

/**
 * What became of an intent, reported on the engine's outcome stream and routed back to the
 * strategy that emitted it. Exactly one outcome per intent: `accepted`, `refused`, `failed` or
 * `dry_run`, which are terminal, or `unknown`: the action was sent, may have executed, and neither
 * resends nor the venue's state (open orders, feeds, the position) could show whether. An
 * `unknown` intent stays in flight in the journal, and the next reconciliation resolves it.
 */
interface OutcomeBase {
  readonly intentId: string;
  readonly strategy: string;
  readonly kind: IntentKind;
  readonly marketId: number;
  /** Engine clock, milliseconds. */
  readonly atMs: number;
}

/** The venue took the action (an order placed, a cancel done, leverage set...). */
export interface AcceptedOutcome extends OutcomeBase {
  readonly type: 'accepted';
  /** For placements: the venue's order id (hex string). */
  readonly orderId?: string;
  readonly txHash?: string;
}

/**
 * Refused locally by a pre-trade check or a guard: nothing was signed or sent. One exception, rule
 * `cancel_target_finished`: a cancel whose order is no longer open (it filled or was cancelled
 * first), known to the tracker before sending or answered `OrderNotFound` by the venue. Nothing to
 * do and not a failure; the order's events say whether it filled or was cancelled.
 */
export interface RefusedOutcome extends OutcomeBase {
  readonly type: 'refused';
  readonly refusal: Refusal;
}

/** Sent and refused by the venue, or given up after the retry policy ran out. */
export interface FailedOutcome extends OutcomeBase {
  readonly type: 'failed';
  readonly error: {
    readonly code: string;
    readonly kind?: string;
    readonly message: string;
    readonly hints: readonly string[];
  };
}

/** No definite answer (timeout, 5xx, dropped connection), and the venue's state could not tell either. */
export interface UnknownOutcome extends OutcomeBase {
  readonly type: 'unknown';
  readonly reason: string;
  /** What to read before acting again. */
  readonly hints?: readonly string[];
}

/** Dry run: signed (or built) and logged instead of sent. */
export interface DryRunOutcome extends OutcomeBase {
  readonly type: 'dry_run';
  readonly request: { readonly path: string; readonly body: unknown };
}

export type IntentOutcome = AcceptedOutcome | RefusedOutcome | FailedOutcome | UnknownOutcome | DryRunOutcome;

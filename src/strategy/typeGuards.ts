import type {
  AcceptedOutcome,
  DryRunOutcome,
  FailedOutcome,
  IntentOutcome,
  RefusedOutcome,
  UnknownOutcome,
} from '../engine/intents/intentOutcome.js';
import type {
  OrderCancelledEvent,
  OrderEvent,
  OrderExpiredEvent,
  OrderFilledEvent,
  OrderPartiallyFilledEvent,
  OrderPlacedEvent,
} from './orderEvents.js';

/**
 * Narrowing guards for every outcome and order event kind, usable in `filter`:
 * `ctx.outcomes.pipe(filter(isRefused), map((o) => o.refusal.rule))`.
 */

/** The venue took the action. */
export const isAccepted = (o: IntentOutcome): o is AcceptedOutcome => o.type === 'accepted';
/**
 * Refused, for an outcome and for an order event alike. An outcome: a pre-trade check or a guard
 * said no before anything was sent (or `cancel_target_finished`, a cancel whose order the venue
 * says is no longer open), and `o.refusal` says which rule and value. An order event: the order
 * was never placed, and `e.by` says whether our checks or the venue refused it.
 */
export const isRefused = <T extends { readonly type: string }>(x: T): x is Extract<T, { readonly type: 'refused' }> =>
  x.type === 'refused';
/** Sent, and the venue refused it or the retries ran out: `o.error` has the venue's code and message. */
export const isFailed = (o: IntentOutcome): o is FailedOutcome => o.type === 'failed';
/** Sent, and neither the answer nor the venue's state showed whether it executed: reconcile before acting again. */
export const isUnknown = (o: IntentOutcome): o is UnknownOutcome => o.type === 'unknown';
/** Dry run: built and signed, never sent. */
export const isDryRun = (o: IntentOutcome): o is DryRunOutcome => o.type === 'dry_run';
/** Refused or failed: the intent did nothing. */
export const isNotDone = (o: IntentOutcome): o is RefusedOutcome | FailedOutcome =>
  o.type === 'refused' || o.type === 'failed';

export const isPlaced = (e: OrderEvent): e is OrderPlacedEvent => e.type === 'placed';
export const isPartiallyFilled = (e: OrderEvent): e is OrderPartiallyFilledEvent => e.type === 'partially_filled';
export const isFilled = (e: OrderEvent): e is OrderFilledEvent => e.type === 'filled';
export const isCancelled = (e: OrderEvent): e is OrderCancelledEvent => e.type === 'cancelled';
export const isExpired = (e: OrderEvent): e is OrderExpiredEvent => e.type === 'expired';
/** A fill event, partial or complete: `e.lastFillSize` is what this step filled. */
export const isFillEvent = (e: OrderEvent): e is OrderPartiallyFilledEvent | OrderFilledEvent =>
  e.type === 'partially_filled' || e.type === 'filled';

/** Events of one order: `ctx.orderEvents.pipe(filter(forIntent(id)))`. */
export function forIntent(intentId: string): <T extends { readonly intentId: string }>(e: T) => boolean {
  return (e) => e.intentId === intentId;
}

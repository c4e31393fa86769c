import { addDecimals } from '../core/decimal.js';
import type { InferredOrderEvent } from '../engine/orders/orderModelEvent.js';
import { applyOrderEvent, type AppliedOrderEvent } from '../engine/orders/orderStateMachine.js';
import type { TrackedOrder } from '../engine/orders/trackedOrder.js';
import type { Journal } from './journal.js';

/**
 * Applies what reconciliation inferred of an order the journal holds (and no live tracker does:
 * a previous run's, at start or in `perpbot reconcile`) through the order model, and journals
 * what the model made of it, the event's cause as the transition's source. `write` false: only
 * the model's answer (a reconciliation that reports and changes nothing). The journal keeps no
 * rule of its own about an order's state.
 */
export function applyToJournal(
  journal: Journal,
  account: string,
  order: TrackedOrder | undefined,
  event: InferredOrderEvent,
  atMs: number,
  write = true,
): AppliedOrderEvent {
  const applied = applyOrderEvent(order, event);
  if (write && applied.kind === 'moved' && changed(order, applied.order))
    journal.recordOrder(account, applied.order, event.cause, atMs);
  return applied;
}

function changed(before: TrackedOrder | undefined, after: TrackedOrder): boolean {
  return (
    before === undefined ||
    before.state !== after.state ||
    before.filledSize !== after.filledSize ||
    before.orderId?.toLowerCase() !== after.orderId?.toLowerCase() ||
    before.restingOrderId !== after.restingOrderId
  );
}

/** What the journaled fills of an order add up to: the `fillSum` of a `fills_counted` event. */
export function journaledFillSum(journal: Journal, account: string, orderId: string): string {
  let sum = '0';
  for (const f of journal.fillsOfOrder(account, orderId)) sum = addDecimals(sum, f.size);
  return sum;
}

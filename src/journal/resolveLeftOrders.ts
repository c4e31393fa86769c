import { storedOrder } from '../engine/orders/storedOrder.js';
import type { TrackedOrder } from '../engine/orders/trackedOrder.js';
import { describeHistoryOrder, historyRecorded } from './historyFills.js';
import { journaledFillSum } from './journalOrderEvents.js';
import type { ReconciliationRun } from './reconciliationRun.js';

/**
 * The journal's orders that left the book unobserved (not open on the venue, and not an in-flight
 * intent's): what the venue's order history holds of one ("closed per order history"), else what
 * its journaled fills add up to, is an event the order model applies; one the model does not end
 * is left to the position to judge.
 */
export function resolveLeftOrders(run: ReconciliationRun): void {
  for (const row of run.inputs.orders) {
    if (run.handled.has(row.intentId) || row.orderId === undefined) continue;
    run.handled.add(row.intentId);
    if (run.inputs.openById.has(row.orderId.toLowerCase())) continue;
    const order = storedOrder(row);
    if (closeFromHistory(run, order, row.orderId)) continue;
    const fillSum = journaledFillSum(run.options.journal, run.options.account, row.orderId);
    const counted = run.applyEvent(order, { type: 'fills_counted', cause: 'journaled_fills', fillSum });
    if (counted.state !== 'filled') run.candidates.push({ order: counted, orderId: row.orderId });
  }
}

/** Whether the venue's order history holds the order (and so settles it). */
function closeFromHistory(run: ReconciliationRun, order: TrackedOrder, orderId: string): boolean {
  const { history } = run.inputs;
  const record = history.available ? history.order(orderId) : undefined;
  if (record === undefined || record.status === 'ORDER_STATUS_NONE') return false;
  // Still OPEN there while the open orders, read first, no longer list it: a read between two events.
  if (record.status === 'ORDER_STATUS_OPEN') return true;
  const closed = run.applyEvent(order, historyRecorded(record));
  if (closed.state === order.state && closed.filledSize === order.filledSize) return true;
  if (closed.state !== 'filled' && closed.state !== 'cancelled') return true;
  run.differences.push({
    type: 'order_closed',
    intentId: order.intentId,
    orderId,
    state: closed.state,
    reason: `order history: ${describeHistoryOrder(record)}`,
  });
  return true;
}

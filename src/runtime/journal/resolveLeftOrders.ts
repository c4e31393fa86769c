import { compareDecimals } from '../../core/decimal.js';
import { describeHistoryOrder, filledSizeWith, stateOfHistoryOrder } from './historyFills.js';
import type { JournalOrder } from './journalRows.js';
import type { ReconciliationRun } from './reconciliationRun.js';

/**
 * The journal's orders that left the book unobserved (not open on the venue, and not an in-flight
 * intent's): their fate is their record in the venue's order history when it holds one; an order
 * whose journaled fills add up to its size is filled; any other is left to the position to judge.
 */
export function resolveLeftOrders(run: ReconciliationRun): void {
  for (const order of run.inputs.orders) {
    if (run.handled.has(order.intentId) || order.orderId === undefined) continue;
    run.handled.add(order.intentId);
    if (run.inputs.openById.has(order.orderId.toLowerCase())) continue;
    if (closeFromHistory(run, order, order.orderId)) continue;
    if (compareDecimals(order.filledSize, order.size) >= 0) run.recordOrder({ ...order, state: 'filled' });
    else run.candidates.push({ order, orderId: order.orderId });
  }
}

/** Whether the venue's order history holds the order (and so settles it). */
function closeFromHistory(run: ReconciliationRun, order: JournalOrder, orderId: string): boolean {
  const { history } = run.inputs;
  const record = history.available ? history.order(orderId) : undefined;
  const recordState = record === undefined ? undefined : stateOfHistoryOrder(record);
  if (record === undefined || recordState === undefined) return false;
  // Still OPEN there (a read between two events) leaves the journal as it is.
  if (recordState === 'open') return true;
  const filledSize = filledSizeWith(order.filledSize, record);
  if (order.state === recordState && compareDecimals(filledSize, order.filledSize) === 0) return true;
  run.differences.push({
    type: 'order_closed',
    intentId: order.intentId,
    orderId,
    state: recordState,
    reason: `order history: ${describeHistoryOrder(record)}`,
  });
  run.recordOrder({ ...order, state: recordState, filledSize });
  return true;
}

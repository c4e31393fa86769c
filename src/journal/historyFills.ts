import { compareDecimals } from '../core/decimal.js';
import type { InferredOrderEvent } from '../engine/orders/orderModelEvent.js';
import { storedOrder } from '../engine/orders/storedOrder.js';
import { trackedFill } from '../engine/tracking/orderTracker.js';
import type { OrderHistoryRecord } from '../venue/schemas/restHistory.js';
import type { FillRecord } from '../venue/schemas/wsFramesPrivate.js';
import type { Journal } from './journal.js';
import { applyToJournal, journaledFillSum } from './journalOrderEvents.js';
import type { Difference } from './reconciliationReport.js';

/** "Closed per order history": the record as the event the order model applies. */
export function historyRecorded(record: OrderHistoryRecord): Extract<InferredOrderEvent, { type: 'history_recorded' }> {
  return {
    type: 'history_recorded',
    cause: 'order_history',
    status: record.status,
    filledSize: record.filled_size,
    orderId: record.id,
    restingOrderId: record.resting_order_id,
  };
}

/** "order 0x… FILLED, filled 0.0005 of 0.0005 at avg 64000", for the report. */
export function describeHistoryOrder(record: OrderHistoryRecord): string {
  const avg =
    record.avg_price === undefined || compareDecimals(record.avg_price, '0') === 0 ? '' : ` at avg ${record.avg_price}`;
  return `order ${record.id} ${record.status.replace('ORDER_STATUS_', '')}, filled ${record.filled_size} of ${record.size}${avg}`;
}

/**
 * Journals a fill read from the venue's trade history (source `history`) when the account's fill id is new,
 * linked to the journal's order (by order id, else client_order_id); what its journaled fills now
 * add up to is an event ("filled per trade history") the order model applies to that order.
 * Returns whether the fill was new.
 */
export function journalHistoryFill(journal: Journal, account: string, fill: FillRecord, atMs: number): boolean {
  const order =
    journal.orderByOrderId(fill.order_id) ??
    (fill.client_order_id === undefined ? undefined : journal.orderByClientOrderId(account, fill.client_order_id));
  const inserted = journal.recordFill(account, trackedFill(fill, order), 'history', atMs);
  if (!inserted || order === undefined || order.orderId === undefined) return inserted;
  const fillSum = journaledFillSum(journal, account, order.orderId);
  applyToJournal(
    journal,
    account,
    storedOrder(order),
    { type: 'fills_counted', cause: 'trade_history', fillSum },
    atMs,
  );
  return inserted;
}

/**
 * The fills of a history read the journal does not hold yet, each journaled once per (account, id) and
 * reported as `fill_recovered`. `count`: who counts them ('journal': straight into the journal; a
 * function: the engine's tracker, whose ledger journals them); 'report': nothing is written.
 */
export function recoverHistoryFills(
  journal: Journal,
  account: string,
  fills: readonly FillRecord[],
  count: 'journal' | 'report' | ((fill: FillRecord) => boolean),
  atMs: number,
): Difference[] {
  const recovered: Difference[] = [];
  for (const fill of fills) {
    if (journal.hasFill(account, fill.id)) continue;
    if (count !== 'report') {
      const counted = count === 'journal' ? journalHistoryFill(journal, account, fill, atMs) : count(fill);
      // A counter whose ledger is not this journal: the journal holds every fill all the same.
      if (!journal.hasFill(account, fill.id)) journalHistoryFill(journal, account, fill, atMs);
      if (!counted) continue;
    }
    const intentId = journal.orderByOrderId(fill.order_id)?.intentId;
    recovered.push({
      type: 'fill_recovered',
      fillId: fill.id,
      orderId: fill.order_id,
      ...(intentId === undefined ? {} : { intentId }),
      marketId: fill.market_id,
      side: fill.side,
      size: fill.size,
      price: fill.price,
      fee: fill.fee,
    });
  }
  return recovered;
}

import { addDecimals, compareDecimals } from '../../core/decimal.js';
import { trackedFill } from '../../engine/tracking/orderTracker.js';
import type { OrderHistoryRecord } from '../../venue/schemas/restHistory.js';
import type { FillRecord } from '../../venue/schemas/wsFramesPrivate.js';
import type { Journal } from './journal.js';
import type { Difference } from './reconciliationReport.js';

/** What an order-history record says of an order's fate; undefined for ORDER_STATUS_NONE. */
export function stateOfHistoryOrder(record: OrderHistoryRecord): 'open' | 'filled' | 'cancelled' | undefined {
  switch (record.status) {
    case 'ORDER_STATUS_OPEN':
      return 'open';
    case 'ORDER_STATUS_FILLED':
      return 'filled';
    case 'ORDER_STATUS_CANCELLED':
      return 'cancelled';
    case 'ORDER_STATUS_NONE':
      return undefined;
  }
}

/** "order 0x… FILLED, filled 0.0005 of 0.0005 at avg 64000", for the report. */
export function describeHistoryOrder(record: OrderHistoryRecord): string {
  const avg =
    record.avg_price === undefined || compareDecimals(record.avg_price, '0') === 0 ? '' : ` at avg ${record.avg_price}`;
  return `order ${record.id} ${record.status.replace('ORDER_STATUS_', '')}, filled ${record.filled_size} of ${record.size}${avg}`;
}

/** An order's filled size once its history record is known: the larger of the journal's and the record's. */
export function filledSizeWith(journaled: string, record: OrderHistoryRecord): string {
  return compareDecimals(journaled, record.filled_size) >= 0 ? journaled : record.filled_size;
}

/**
 * Journals a fill read from the venue's trade history (source `history`) when the account's fill id is new,
 * linked to the journal's order (by order id, else client_order_id); raises that order's filled
 * size to what its journaled fills add up to. Returns whether the fill was new.
 */
export function journalHistoryFill(journal: Journal, account: string, fill: FillRecord, atMs: number): boolean {
  const order =
    journal.orderByOrderId(fill.order_id) ??
    (fill.client_order_id === undefined ? undefined : journal.orderByClientOrderId(account, fill.client_order_id));
  const inserted = journal.recordFill(account, trackedFill(fill, order), 'history', atMs);
  if (!inserted || order === undefined || order.orderId === undefined) return inserted;
  if (order.state !== 'open' && order.state !== 'partially_filled' && order.state !== 'cancelled') return inserted;
  let filled = '0';
  for (const f of journal.fillsOfOrder(account, order.orderId)) filled = addDecimals(filled, f.size);
  if (compareDecimals(filled, order.filledSize) <= 0) return inserted;
  const state =
    compareDecimals(filled, order.size) >= 0
      ? 'filled'
      : order.state === 'cancelled'
        ? 'cancelled'
        : 'partially_filled';
  journal.recordOrder(account, { ...order, state, filledSize: filled }, 'history', atMs);
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

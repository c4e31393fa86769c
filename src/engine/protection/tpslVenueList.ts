import { compareDecimals } from '../../core/decimal.js';
import { isActiveTpsl, type TpslOrderRecord } from '../../venue/schemas/restTpsl.js';
import { roleOf, type TpslOrder } from '../orders/tpslOrder.js';
import type { TpslOrders } from './tpslOrders.js';
import { isTerminalTpsl } from '../orders/tpslState.js';

/** What a read of the venue's whole TP/SL list changed. */
export interface VenueListOutcome {
  /** Orders of ours that reached `executed` or `triggered` with this read: their siblings go. */
  readonly fired: readonly TpslOrder[];
  /** Active venue orders of ours the engine had ended (a cancel that did not land): to cancel again. */
  readonly strays: readonly TpslOrderRecord[];
  /** Active venue orders that are not ours (another client of the account, or a person). */
  readonly foreign: readonly TpslOrderRecord[];
}

/**
 * Judges the venue's whole list (both stop types, every status: `readAllTpslOrders`) against the
 * engine's orders: each of ours takes its record's state; a placement whose answer was lost is
 * adopted by the one active record of the same market, side, stop type, size and stop price (the
 * venue has no client id for TP/SL orders), so a restart never places it twice; an order of ours
 * the list lacks ends (`not_listed`).
 */
export function applyVenueList(
  orders: TpslOrders,
  records: readonly TpslOrderRecord[],
  markets: ReadonlySet<number>,
  atMs: number,
): VenueListOutcome {
  const fired: TpslOrder[] = [];
  const strays: TpslOrderRecord[] = [];
  const foreign: TpslOrderRecord[] = [];
  const seen = new Set<string>();
  for (const record of records) {
    if (!markets.has(Number(record.market_id))) continue;
    const ours = orders.byVenueId(record.order_id) ?? adoptable(orders, record);
    if (ours === undefined) {
      if (isActiveTpsl(record)) foreign.push(record);
      continue;
    }
    seen.add(ours.id);
    if (isTerminalTpsl(ours.state)) {
      if (isActiveTpsl(record) && record.status === 'TPSL_ORDER_STATUS_ACCEPTED') strays.push(record);
      continue;
    }
    const after = orders.apply(ours.id, venueRecordEvent(record), atMs);
    if (
      after !== undefined &&
      after.state !== ours.state &&
      (after.state === 'executed' || after.state === 'triggered')
    )
      fired.push(after);
  }
  for (const order of orders.all()) {
    if (seen.has(order.id) || isTerminalTpsl(order.state) || order.state === 'emulated') continue;
    if (markets.has(order.marketId)) orders.apply(order.id, { type: 'not_listed' }, atMs);
  }
  return { fired, strays, foreign };
}

function venueRecordEvent(record: TpslOrderRecord) {
  return {
    type: 'venue_record' as const,
    status: record.status,
    venueId: record.order_id,
    filledSize: record.filled_size,
    triggeredPrice: record.triggered_price,
    executionTx: record.triggered_tx_hash,
  };
}

/** Our placement in flight (no venue id yet) that this record is, when exactly one matches. */
function adoptable(orders: TpslOrders, record: TpslOrderRecord): TpslOrder | undefined {
  if (!isActiveTpsl(record) && record.status !== 'TPSL_ORDER_STATUS_SUCCESS') return undefined;
  const matches = orders
    .all()
    .filter(
      (o) =>
        o.state === 'placing' &&
        o.venueId === undefined &&
        o.marketId === Number(record.market_id) &&
        o.side === record.side &&
        o.role === roleOf(record.stop_type) &&
        compareDecimals(o.size, record.size) === 0 &&
        compareDecimals(o.stopPrice, record.stop_price) === 0,
    );
  return matches.length === 1 ? matches[0] : undefined;
}

/** How much earlier than our oldest live order the venue's list is read (the venue's clock may differ). */
const LIST_SKEW_MS = 60_000;

/**
 * How far back a read of the list must reach for the ended orders: to the oldest order still live
 * here (less a minute of clock skew), so each of ours is judged by its record; active ones are
 * always read.
 */
export function listSinceMs(orders: readonly TpslOrder[], nowMs: number): number {
  let oldest = nowMs;
  for (const o of orders) if (!isTerminalTpsl(o.state)) oldest = Math.min(oldest, o.createdMs);
  return oldest - LIST_SKEW_MS;
}

import { addDecimals, compareDecimals, negateDecimal } from '../core/decimal.js';
import { toPlaces, USDC_PLACES } from '../core/displayDecimal.js';
/**
 * What a reconciliation found: every difference between the journal and the venue, and what was
 * done about it. Logged, stored in the journal and printed by `perpbot reconcile`.
 */
export type Difference =
  | {
      readonly type: 'in_flight_resolved';
      readonly intentId: string;
      readonly kind: string;
      /**
       * open: found resting; filled / cancelled: its order, found in the venue's order history;
       * executed: its nonce was consumed; not_executed: consumed never and deadline passed, or (its
       * anchor past) no order of its client_order_id in the venue's order history.
       */
      readonly resolution: 'open' | 'filled' | 'cancelled' | 'executed' | 'not_executed';
      readonly orderId?: string;
      readonly reason: string;
    }
  | {
      readonly type: 'in_flight_unresolved';
      readonly intentId: string;
      readonly kind: string;
      readonly reason: string;
      readonly retryAtMs?: number;
    }
  | {
      readonly type: 'order_closed';
      readonly intentId: string;
      readonly orderId: string;
      readonly state: 'filled' | 'cancelled';
      readonly reason: string;
    }
  | {
      readonly type: 'order_closed_unattributed';
      readonly intentId: string;
      readonly orderId: string;
      readonly reason: string;
    }
  | {
      readonly type: 'fill_inferred';
      readonly orderId: string;
      readonly intentId: string;
      readonly size: string;
      readonly price: string;
      readonly reason: string;
    }
  | {
      /**
       * A fill the fills channel never delivered, journaled from the venue's trade history with its
       * real id, price and fee.
       */
      readonly type: 'fill_recovered';
      readonly fillId: string;
      readonly orderId: string;
      readonly intentId?: string;
      readonly marketId: number;
      readonly side: 'buy' | 'sell';
      readonly size: string;
      readonly price: string;
      readonly fee: string;
    }
  | {
      readonly type: 'position_unexplained';
      readonly marketId: number;
      readonly expected: string;
      readonly venue: string;
      readonly reason: string;
    }
  | {
      /** What the run inferred of an order would move it where the order model does not allow: not written. */
      readonly type: 'order_event_refused';
      readonly intentId: string;
      readonly event: string;
      readonly cause: string;
      readonly from: string;
      readonly to: string;
      readonly reason: string;
    }
  | {
      readonly type: 'unknown_open_order';
      readonly orderId: string;
      readonly marketId: number;
      readonly action: 'adopt' | 'cancel' | 'leave';
      readonly strategy?: string;
    };

/**
 * The venue's cross-margin balance against the last snapshot the journal holds. A change is not
 * an error (fills, fees, funding and deposits move it) and is not broken down: the venue shows no
 * ledger of it. It is reported so a restart or reconnect says how the money moved meanwhile.
 */
export interface BalanceComparison {
  /** USDC decimal from GET /v1/account/cross-margin-balance; may be negative. */
  readonly venue: string;
  /** The last journaled snapshot; absent on the first reconciliation of the account. */
  readonly journaled?: string;
  readonly journaledAtMs?: number;
  /** venue − journaled, signed; absent without a snapshot. */
  readonly change?: string;
}

export interface ReconciliationReport {
  readonly trigger: 'start' | 'reconnect' | 'frames_lost' | 'stream_start' | 'stop' | 'cli';
  /** False when something is left unresolved that trading must not run over. */
  readonly ok: boolean;
  readonly differences: readonly Difference[];
  readonly balance: BalanceComparison;
  /** Venue orders this account should cancel (policy `cancel`). */
  readonly toCancel: readonly { readonly orderId: string; readonly marketId: number }[];
  /** When an in-flight permit could still land: reconcile again after this time. */
  readonly retryAtMs?: number;
  /**
   * Why the venue's history could not be read, when it could not: fills and order fates were then
   * inferred from the position (each such difference says "inferred: history unavailable").
   */
  readonly historyUnavailable?: string;
  readonly atMs: number;
}

export function describeDifference(d: Difference): string {
  switch (d.type) {
    case 'in_flight_resolved':
      return `intent ${d.intentId} (${d.kind}) was in flight: ${d.resolution}${d.orderId === undefined ? '' : ` as order ${d.orderId}`} (${d.reason})`;
    case 'in_flight_unresolved':
      return `intent ${d.intentId} (${d.kind}) is still unresolved: ${d.reason}`;
    case 'order_closed':
      return `order ${d.orderId} (intent ${d.intentId}) left the book while unobserved: ${d.state} (${d.reason})`;
    case 'order_closed_unattributed':
      return `order ${d.orderId} (intent ${d.intentId}) left the book; filled or cancelled cannot be told (${d.reason})`;
    case 'fill_inferred':
      return `fill of ${d.size} at ${d.price} inferred for order ${d.orderId} (intent ${d.intentId}; ${d.reason})`;
    case 'fill_recovered':
      return `fill ${d.fillId} of order ${d.orderId} (${d.side} ${d.size} at ${d.price}, fee ${d.fee}) was missed by the fills channel: journaled from the venue's trade history`;
    case 'position_unexplained':
      return `market ${d.marketId}: venue position ${d.venue}, journal expects ${d.expected} (${d.reason})`;
    case 'order_event_refused':
      return `intent ${d.intentId}: ${d.event} per ${d.cause} would move its order from ${d.from} to ${d.to}, which the order model refuses (${d.reason}): left as it is`;
    case 'unknown_open_order':
      return `order ${d.orderId} in market ${d.marketId} is open on the venue but not in the journal: ${d.action}${d.strategy === undefined ? '' : ` (by ${d.strategy})`}`;
  }
}

/**
 * The balance line at the venue's USDC precision (the report's JSON keeps the exact values); the
 * change shown is the difference of the two figures shown, so the line adds up on screen.
 */
export function describeBalance(b: BalanceComparison): string {
  const venue = toPlaces(b.venue, USDC_PLACES);
  if (b.journaled === undefined || b.change === undefined)
    return `balance ${venue} USDC (no earlier snapshot in the journal)`;
  const journaled = toPlaces(b.journaled, USDC_PLACES);
  const since = b.journaledAtMs === undefined ? '' : ` at ${new Date(b.journaledAtMs).toISOString()}`;
  const change = toPlaces(addDecimals(venue, negateDecimal(journaled)), USDC_PLACES);
  const signed = change.startsWith('-') || compareDecimals(change, '0') === 0 ? change : `+${change}`;
  return `balance ${venue} USDC: ${signed} since the journaled ${journaled}${since}`;
}

import type { OrderState } from '../engine/tracking/orderTracker.js';
import type { StoredOrder } from '../engine/orders/storedOrder.js';
import type { Side } from '../engine/intents/intents.js';
import { optionalTextColumn, textColumn, type Row } from './sqliteRow.js';

/**
 * What the journal hands back: plain, JSON-safe records (ids and money as strings), so the CLI can
 * print them and a later run can rebuild from them.
 */
export interface JournalOrder extends StoredOrder {
  readonly account: string;
  readonly updatedMs: number;
}

/**
 * `venue`: a fill the fills channel delivered; `history`: read from the venue's trade history by a
 * reconciliation (the channel missed it), with its real id, price and fee; `reconciled`: inferred
 * from the position where history could not be read (id `reconciled:<order_id>`, no fee).
 */
export type FillSource = 'venue' | 'history' | 'reconciled';

export interface JournalFill {
  readonly seq: number;
  readonly fillId: string;
  readonly account: string;
  readonly marketId: number;
  readonly orderId: string;
  readonly intentId?: string;
  readonly strategy?: string;
  readonly side: Side;
  readonly price: string;
  readonly size: string;
  readonly fee?: string;
  readonly liquidity?: string;
  readonly source: FillSource;
  readonly atMs: number;
}

export interface JournalPosition {
  readonly marketId: number;
  readonly side: Side;
  /** Absolute size; "0" when flat. */
  readonly size: string;
  readonly avgEntryPrice?: string;
  readonly marginMode?: string;
  readonly source: string;
  /** The last fill journaled when the snapshot was taken: later fills explain later changes. */
  readonly fillSeq: number;
  readonly atMs: number;
}

/** A cross-margin balance as the venue reported it, with the reconciliation that read it. */
export interface JournalBalance {
  /** USDC decimal; may be negative. */
  readonly balance: string;
  readonly source: string;
  readonly atMs: number;
}

export interface JournalRequest {
  readonly endpoint: string;
  readonly body: Readonly<Record<string, unknown>>;
  readonly nonce?: { readonly anchor: bigint; readonly bit: number };
  readonly attempt: number;
  readonly atMs: number;
}

/** An intent journaled without a terminal outcome: the process stopped while it was in flight. */
export interface InFlightIntent {
  readonly intentId: string;
  readonly runId: string;
  readonly strategy: string;
  readonly kind: string;
  readonly marketId: number;
  readonly receivedMs: number;
  /** The intent as received (bigints as decimal strings). */
  readonly intent: Readonly<Record<string, unknown>>;
  readonly requests: readonly JournalRequest[];
  readonly order?: JournalOrder;
}

/** A row of `orders` as a record. */
export function orderFromRow(row: Row): JournalOrder {
  const clientOrderId = optionalTextColumn(row, 'client_order_id');
  const orderId = optionalTextColumn(row, 'order_id');
  const restingOrderId = optionalTextColumn(row, 'resting_order_id');
  return {
    intentId: textColumn(row, 'intent_id'),
    account: textColumn(row, 'account'),
    strategy: textColumn(row, 'strategy'),
    marketId: Number(row['market_id']),
    side: row['side'] as Side,
    size: textColumn(row, 'size'),
    price: textColumn(row, 'price'),
    ...(clientOrderId === undefined ? {} : { clientOrderId }),
    ...(orderId === undefined ? {} : { orderId }),
    ...(restingOrderId === undefined ? {} : { restingOrderId }),
    state: row['state'] as OrderState,
    filledSize: textColumn(row, 'filled_size'),
    updatedMs: Number(row['updated_ms']),
  };
}

/** A row of `fills` as a record. */
export function fillFromRow(row: Row): JournalFill {
  const intentId = optionalTextColumn(row, 'intent_id');
  const strategy = optionalTextColumn(row, 'strategy');
  const fee = optionalTextColumn(row, 'fee');
  const liquidity = optionalTextColumn(row, 'liquidity');
  return {
    seq: Number(row['seq']),
    fillId: textColumn(row, 'fill_id'),
    account: textColumn(row, 'account'),
    marketId: Number(row['market_id']),
    orderId: textColumn(row, 'order_id'),
    ...(intentId === undefined ? {} : { intentId }),
    ...(strategy === undefined ? {} : { strategy }),
    side: row['side'] as Side,
    price: textColumn(row, 'price'),
    size: textColumn(row, 'size'),
    ...(fee === undefined ? {} : { fee }),
    ...(liquidity === undefined ? {} : { liquidity }),
    source: row['source'] as FillSource,
    atMs: Number(row['at_ms']),
  };
}

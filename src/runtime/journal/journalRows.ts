import type { OrderState } from '../../engine/orderTracker.js';
import type { Side } from '../../engine/intents.js';

/**
 * What the journal hands back: plain, JSON-safe records (ids and money as strings), so the CLI can
 * print them and a later run can rebuild from them.
 */
export interface JournalOrder {
  readonly intentId: string;
  readonly account: string;
  readonly strategy: string;
  readonly marketId: number;
  readonly side: Side;
  readonly size: string;
  readonly price: string;
  readonly clientOrderId?: string;
  readonly orderId?: string;
  readonly restingOrderId?: string;
  readonly state: OrderState;
  readonly filledSize: string;
  readonly updatedMs: number;
}

/** `venue`: a fill the fills channel delivered; `reconciled`: inferred when the channel missed it. */
export type FillSource = 'venue' | 'reconciled';

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

export const TERMINAL_ORDER_STATES: ReadonlySet<OrderState> = new Set(['filled', 'cancelled', 'rejected', 'failed']);

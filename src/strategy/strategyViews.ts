import type { Side } from '../engine/intents.js';
import type { MarketView } from '../engine/marketView.js';

/**
 * What a strategy reads: small, stable, exact (decimal strings) views. The runtime maps the
 * venue's channels and the engine's tracked state onto these, so a strategy is unchanged between
 * the simulator, testnet and mainnet.
 */
export interface BookLevel {
  readonly price: string;
  readonly quantity: string;
}

/** A full book at one moment: bids best (highest) first, asks best (lowest) first. */
export interface BookView {
  readonly marketId: number;
  readonly bids: readonly BookLevel[];
  readonly asks: readonly BookLevel[];
}

export interface MarkPrice {
  readonly marketId: number;
  readonly markPrice: string;
  readonly indexPrice?: string;
  readonly blockNumber: number;
}

export interface PositionSnapshot {
  readonly marketId: number;
  readonly side: Side;
  /** Absolute size; "0" when flat. */
  readonly size: string;
  readonly avgEntryPrice?: string;
}

export interface OpenOrderSnapshot {
  readonly orderId: string;
  /** The intent that placed it, when this process placed it. */
  readonly intentId?: string;
  readonly strategy?: string;
  readonly marketId: number;
  readonly side: Side;
  readonly price: string;
  readonly size: string;
  readonly filledSize: string;
}

export interface FillView {
  readonly id: string;
  readonly marketId: number;
  readonly orderId: string;
  readonly intentId?: string;
  readonly side: Side;
  readonly price: string;
  readonly size: string;
  readonly fee: string;
  readonly liquidity: 'MAKER' | 'TAKER';
}

/** Synchronous reads of the current state, as the engine tracks it. */
export interface StateSnapshot {
  markets(): readonly MarketView[];
  market(marketId: number): MarketView | undefined;
  position(marketId: number): PositionSnapshot | undefined;
  openOrders(marketId?: number): readonly OpenOrderSnapshot[];
  /** Cross-margin balance in USDC (may be negative). */
  balance(): string | undefined;
}

export type { MarketView };

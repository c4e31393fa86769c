import type { Side } from '../engine/intents/intents.js';
import type { MarketView } from '../engine/checks/marketView.js';

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
  /** Long positive, short negative ("-0.25"), "0" when flat. */
  readonly signedSize: string;
  readonly avgEntryPrice?: string;
  /** The market's mark price when the snapshot was taken (absent before the first mark). */
  readonly markPrice?: string;
  /**
   * (mark − average entry) × signedSize, valued as the engine's ledger values positions (average
   * entry, to the venue's 1 wei); the venue's own figure when the entry price is unknown.
   */
  readonly unrealisedPnl?: string;
  /** @deprecated the earlier name, kept for strategies written against it: read `unrealisedPnl`. */
  readonly unrealizedPnl?: string;
  /** Where the venue would liquidate it, when the venue reports one. */
  readonly liquidationPrice?: string;
}

/**
 * Where a live order is: `queued` (the engine has it and it waits for admission: its strategy's
 * budget or a rate limit; nothing sent), `submitted` (admitted: being signed and sent, no answer
 * yet), `unknown` (sent without a definite answer), `open` or `partially_filled` (resting on the
 * venue). A queued or submitted order can be cancelled by its intent id like a resting one: a
 * queued one goes at once and is never sent.
 */
export type OpenOrderState = 'queued' | 'submitted' | 'unknown' | 'open' | 'partially_filled';

export interface OpenOrderSnapshot {
  /** The venue's order id; "" while the order is queued or in flight (the venue has not named it yet). */
  readonly orderId: string;
  /** The intent that placed it, when this process placed it. */
  readonly intentId?: string;
  readonly strategy?: string;
  readonly marketId: number;
  readonly side: Side;
  readonly price: string;
  readonly size: string;
  readonly filledSize: string;
  readonly state: OpenOrderState;
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
  /** The strategy whose order filled (absent for orders this process did not place). */
  readonly strategy?: string;
  /** When the venue matched it (Unix ms); the engine clock when the venue did not say. */
  readonly timeMs: number;
}

/** A public trade of a market. */
export interface TradeView {
  readonly marketId: number;
  /** The venue's trade id, when it sent one. */
  readonly id?: string;
  readonly price: string;
  readonly size: string;
  /** Side of the resting order that was hit. */
  readonly makerSide: Side;
  /** Side of the order that crossed the spread (the opposite of makerSide). */
  readonly aggressorSide: Side;
  /** When the venue published it (Unix ms). */
  readonly timeMs: number;
}

/** The best prices of a book; a side is absent while it is empty. */
export interface TopOfBook {
  readonly marketId: number;
  readonly bestBid?: BookLevel;
  readonly bestAsk?: BookLevel;
  /** ask − bid, when both sides have a level. */
  readonly spread?: string;
  /** (bid + ask) / 2, when both sides have a level. */
  readonly mid?: string;
}

/** One OHLCV bar of public trades over [startMs, startMs + intervalMs). */
export interface Candle {
  readonly marketId: number;
  readonly startMs: number;
  readonly intervalMs: number;
  readonly open: string;
  readonly high: string;
  readonly low: string;
  readonly close: string;
  /** Base size traded. */
  readonly volume: string;
  readonly trades: number;
}

export type { PnlView } from '../engine/ledger/pnlView.js';

/** Synchronous reads of the current state, as the engine tracks it. */
export interface StateSnapshot {
  markets(): readonly MarketView[];
  market(marketId: number): MarketView | undefined;
  /**
   * The market's config (`config.step_price` the tick, `step_size`, `min_order_size`), as
   * `market(id)?.config` gives it, without a copy of the market's record (`market` copies it after
   * every mark move): for a strategy that reads its grid at every mark.
   */
  marketConfig(marketId: number): MarketView['config'] | undefined;
  position(marketId: number): PositionSnapshot | undefined;
  openOrders(marketId?: number): readonly OpenOrderSnapshot[];
  /** Cross-margin balance in USDC (may be negative). */
  balance(): string | undefined;
  /** Funding of a market where the venue reports it (optional: absent when the runtime has none). */
  funding?(marketId: number): FundingView | undefined;
}

export type { MarketView };

/** Funding as the venue reports it on the market record (absent when it does not). */
export interface FundingView {
  readonly marketId: number;
  /** The current funding rate as a decimal fraction per funding period. */
  readonly rate?: string;
  readonly rate8h?: string;
  /** Unix ms of the next funding payment. */
  readonly nextFundingTimeMs?: number;
}

/**
 * The engine's trading state as a strategy sees it (`ctx.tradingState()`, `ctx.streams.tradingState()`):
 * `trading`; `degraded` (the feeds are down or not reconciled: only cancels and reduce-only orders
 * go; it lifts by itself); `halted` (a kill switch is tripped, the account's or the strategy's own:
 * only cancels and closes go until a person resets it); `stopped` for good.
 */
export interface TradingStateView {
  readonly mode: 'trading' | 'degraded' | 'halted' | 'stopped';
  /** Why not trading, one entry per condition (empty while trading). */
  readonly reasons: readonly string[];
  /** Engine clock (ms) when this mode began. */
  readonly sinceMs: number;
}

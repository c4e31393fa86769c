import type { Rounding } from '../../core/decimal.js';

/**
 * What a strategy asks for. Intents are plain data: they carry decimal strings as the strategy
 * wrote them, and the engine (pre-trade checks, guards) turns them into wire values or refuses
 * them. A strategy never sees nonces, ticks or signatures.
 */

export type Side = 'buy' | 'sell';
export type TimeInForce = 'GTC' | 'GTT' | 'FOK' | 'IOC';
export type MarketTimeInForce = 'FOK' | 'IOC';
export type StpMode = 'expire_maker' | 'expire_taker' | 'expire_both';
export type MarginMode = 'cross' | 'isolated';
/** What to do when a margin-mode switch meets an open position in that market. */
export type MarginModePolicy = 'refuse' | 'close_first';

interface IntentBase {
  /** Unique per strategy run; ties outcomes, logs and later cancels back to this intent. */
  readonly intentId: string;
  readonly strategy: string;
  /** Numeric market id (market 1 is BTC/USDC); must fit 16 bits. */
  readonly marketId: number;
}

export interface PlaceLimitIntent extends IntentBase {
  readonly kind: 'placeLimit';
  readonly side: Side;
  /** Base-asset size as a decimal string. */
  readonly size: string;
  /** Limit price as a decimal string. */
  readonly price: string;
  /** Absent: the size must already be a whole number of steps. */
  readonly sizeRounding?: Rounding;
  /** Absent: the price must already be a whole number of ticks. */
  readonly priceRounding?: Rounding;
  readonly timeInForce: TimeInForce;
  readonly postOnly: boolean;
  readonly reduceOnly: boolean;
  /** Absent: the configured default. */
  readonly stpMode?: StpMode;
  /** uint64, 1 or more; not an idempotency key (the nonce is). */
  readonly clientOrderId?: bigint;
  /** ttl_units (uint16) for GTT orders. */
  readonly ttlUnits?: number;
}

export interface PlaceMarketIntent extends IntentBase {
  readonly kind: 'placeMarket';
  readonly side: Side;
  readonly size: string;
  readonly sizeRounding?: Rounding;
  /** Overrides the configured maximum slippage for this order, in basis points of the mark. */
  readonly maxSlippageBps?: number;
  readonly timeInForce: MarketTimeInForce;
  readonly reduceOnly: boolean;
  readonly stpMode?: StpMode;
  readonly clientOrderId?: bigint;
}

/** Cancels one order, named by the intent that placed it or by the venue's order id. */
export interface CancelIntent extends IntentBase {
  readonly kind: 'cancel';
  readonly target: { readonly intentId: string } | { readonly orderId: string };
}

export interface CancelAllIntent extends IntentBase {
  readonly kind: 'cancelAll';
}

/** A reduce-only market order for the whole open position in the market. */
export interface ClosePositionIntent extends IntentBase {
  readonly kind: 'closePosition';
  readonly maxSlippageBps?: number;
  /** Given by the engine when absent, as for placements: it ties an early fill to the order. */
  readonly clientOrderId?: bigint;
}

export interface SetLeverageIntent extends IntentBase {
  readonly kind: 'setLeverage';
  /** Whole number, 1 to min(255, the market's max_leverage). */
  readonly leverage: number;
}

export interface SetMarginModeIntent extends IntentBase {
  readonly kind: 'setMarginMode';
  readonly marginMode: MarginMode;
  readonly policy: MarginModePolicy;
}

export interface AdjustIsolatedMarginIntent extends IntentBase {
  readonly kind: 'adjustIsolatedMargin';
  /** Signed USDC decimal: positive adds margin to the isolated position, negative removes. */
  readonly amount: string;
}

export type PlaceIntent = PlaceLimitIntent | PlaceMarketIntent;

export type Intent =
  | PlaceLimitIntent
  | PlaceMarketIntent
  | CancelIntent
  | CancelAllIntent
  | ClosePositionIntent
  | SetLeverageIntent
  | SetMarginModeIntent
  | AdjustIsolatedMarginIntent;

export type IntentKind = Intent['kind'];

/** Cancels and closing a position reduce risk; a tripped kill switch still lets them through. */
export function isRiskReducing(intent: Intent): boolean {
  return intent.kind === 'cancel' || intent.kind === 'cancelAll' || intent.kind === 'closePosition';
}

/** Intents the engine sends as a placeOrder action: placements and closes. */
export function placesAnOrder(intent: Intent): intent is PlaceIntent | ClosePositionIntent {
  return isPlaceIntent(intent) || intent.kind === 'closePosition';
}

/** Intents that become an order on the book (or an attempt at one). */
export function isPlaceIntent(intent: Intent): intent is PlaceIntent {
  return intent.kind === 'placeLimit' || intent.kind === 'placeMarket';
}

export function oppositeSide(side: Side): Side {
  return side === 'buy' ? 'sell' : 'buy';
}

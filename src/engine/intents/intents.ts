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

/**
 * How a resting order is moved to a new price or size (the venue has no amend: a new order and a
 * cancel of the old). `make_before_break`: the new order is placed first and the old cancelled once
 * the venue took it, so the price level is never empty (for a moment both rest: the wanted count
 * plus those being replaced); taken only where the account's margin covers both, else
 * `break_before_make`: the old is cancelled first and the new placed once the venue answered, so
 * never more than one order stands for it. Either way both actions are checked and admitted side
 * by side; the second is signed and sent the moment the first's answer allows it.
 */
export type ReplaceMode = 'make_before_break' | 'break_before_make';

/**
 * Moves a resting (or still queued) limit order to a new price and/or size: a new order with the
 * old one's side, time in force, post-only and reduce-only, and a cancel of the old (`mode`). The
 * new order is this intent's order (its events and fills carry this intent's id). When the old
 * order filled before it could be cancelled, nothing new is placed (refused `replace_target_finished`
 * under break-before-make; under make-before-break the new one was placed first and stays).
 */
export interface ReplaceIntent extends IntentBase {
  readonly kind: 'replace';
  readonly target: { readonly intentId: string } | { readonly orderId: string };
  /** New limit price (absent: the old one). */
  readonly price?: string;
  /** New size (absent: the old one's size). */
  readonly size?: string;
  readonly priceRounding?: Rounding;
  readonly sizeRounding?: Rounding;
  /** Absent: the old order's. */
  readonly postOnly?: boolean;
  /** Absent: the old order's. */
  readonly reduceOnly?: boolean;
  /** Absent: make-before-break where margin allows. */
  readonly mode?: ReplaceMode;
}

/** One order a strategy wants resting (a `quote` target's element). */
export interface QuoteOrder {
  readonly side: Side;
  readonly size: string;
  readonly price: string;
  readonly sizeRounding?: Rounding;
  readonly priceRounding?: Rounding;
  /** Default false, as a limit intent's. */
  readonly postOnly?: boolean;
  readonly reduceOnly?: boolean;
}

/** How far a resting order may be from a wanted one and still be kept: the larger of the two, each optional. */
export interface QuoteTolerance {
  /** Whole ticks of the market's price step. */
  readonly ticks?: number;
  /** Basis points of the wanted price. */
  readonly bps?: number;
  /**
   * Keep an order part of which filled (less left than wanted) instead of moving it to a full one
   * (default false: a partly filled quote is replaced by a whole one).
   */
  readonly partial?: boolean;
}

/**
 * The orders a strategy wants resting on a market, declared whole: the engine keeps each resting
 * order of the strategy in that market that is within `tolerance` of a wanted one (same side, the
 * same remaining size), moves the others (`replace`, in `mode`), places what is missing and cancels
 * what is no longer wanted: the fewest actions from what rests to what is wanted. Every quote
 * intent is a fresh declaration: an order that filled or was refused since the last is placed
 * again if still wanted. An empty `orders` cancels the strategy's orders in the market. Accepted at
 * once; the actions it takes have outcomes of their own (intent ids `<this id>.<n>`).
 */
export interface QuoteIntent extends IntentBase {
  readonly kind: 'quote';
  readonly orders: readonly QuoteOrder[];
  /** Absent: exact (an order is kept only at the wanted tick). */
  readonly tolerance?: QuoteTolerance;
  /** How a wanted order replaces one out of tolerance (absent: make-before-break where margin allows). */
  readonly mode?: ReplaceMode;
}

export type PlaceIntent = PlaceLimitIntent | PlaceMarketIntent;

/** What the venue's TP/SL trigger watches: the mark (oracle) price, or the last traded price. */
export type ProtectionTrigger = 'mark' | 'last';

/** The distances of a protection's legs from the position's average entry. */
export interface ProtectionFields {
  /** Stop-loss distance from the average entry, whole basis points 1 to 9999. */
  readonly stopLossBps?: number;
  /** Take-profit distance from the average entry, whole basis points 1 to 9999. */
  readonly takeProfitBps?: number;
  /** Absent: the mark. */
  readonly trigger?: ProtectionTrigger;
}

/**
 * Turns on, changes or turns off the protection of the strategy's position in a market: the
 * venue's TP/SL orders the engine keeps equal to the position (see the YAML's `protection:`),
 * which they outlive. While set it overrides the strategy's `protection:` for that market; `off`
 * leaves the market unprotected (its legs are cancelled) until the strategy protects it again.
 * Accepted at once; the legs follow the position from the engine's next protection pass.
 */
export interface ProtectIntent extends IntentBase, ProtectionFields {
  readonly kind: 'protect';
  /** True: stop protecting (no leg fields with it). */
  readonly off?: boolean;
}

/**
 * An entry and its protection: protects the strategy's position in the entry's market (as a
 * `protect` intent) and places the entry, so the TP/SL legs are sized to what actually filled:
 * none while nothing did, the filled part of a partial fill, none after an unfilled entry is
 * cancelled. The bracket's outcome is its protection's; the entry has its own intent id, outcome
 * and order events. Refused whole (nothing placed) when the protection or the entry's shape is.
 */
export interface BracketIntent extends IntentBase, ProtectionFields {
  readonly kind: 'bracket';
  /** The entry: a placement of the same strategy and market, not reduce-only. */
  readonly entry: PlaceIntent;
}

export type Intent =
  | PlaceLimitIntent
  | PlaceMarketIntent
  | CancelIntent
  | CancelAllIntent
  | ClosePositionIntent
  | SetLeverageIntent
  | SetMarginModeIntent
  | AdjustIsolatedMarginIntent
  | ReplaceIntent
  | QuoteIntent
  | ProtectIntent
  | BracketIntent;

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

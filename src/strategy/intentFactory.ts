import {
  adjustIsolatedMargin,
  bracket,
  cancel,
  cancelAll,
  closePosition,
  placeLimit,
  placeMarket,
  protect,
  quote,
  replace,
  setLeverage,
  setMarginMode,
} from '../engine/intents/intentBuilders.js';
import type {
  AdjustIsolatedMarginIntent,
  BracketIntent,
  CancelAllIntent,
  CancelIntent,
  ClosePositionIntent,
  PlaceLimitIntent,
  PlaceMarketIntent,
  ProtectIntent,
  QuoteIntent,
  ReplaceIntent,
  SetLeverageIntent,
  SetMarginModeIntent,
} from '../engine/intents/intents.js';

type Draft<T, Defaulted extends keyof T = never> = Omit<T, 'kind' | 'intentId' | 'strategy' | Defaulted> &
  Partial<Pick<T, Defaulted>>;

/**
 * Intent constructors bound to one strategy: each stamps the strategy's name and a fresh intent
 * id (`<strategy>-<run>-<n>`), so strategies write only what they mean.
 */
export interface IntentFactory {
  placeLimit(fields: Draft<PlaceLimitIntent, 'timeInForce' | 'postOnly' | 'reduceOnly'>): PlaceLimitIntent;
  placeMarket(fields: Draft<PlaceMarketIntent, 'timeInForce' | 'reduceOnly'>): PlaceMarketIntent;
  cancel(fields: Draft<CancelIntent>): CancelIntent;
  cancelAll(fields: Draft<CancelAllIntent>): CancelAllIntent;
  closePosition(fields: Draft<ClosePositionIntent>): ClosePositionIntent;
  setLeverage(fields: Draft<SetLeverageIntent>): SetLeverageIntent;
  setMarginMode(fields: Draft<SetMarginModeIntent, 'policy'>): SetMarginModeIntent;
  adjustIsolatedMargin(fields: Draft<AdjustIsolatedMarginIntent>): AdjustIsolatedMarginIntent;
  /** Moves one of its resting (or queued) orders to a new price and/or size (see `ReplaceIntent`). */
  replace(fields: Draft<ReplaceIntent>): ReplaceIntent;
  /** The orders it wants resting on a market, declared whole: the engine keeps, moves, places, cancels to get there. */
  quote(fields: Draft<QuoteIntent>): QuoteIntent;
  /**
   * Protects its position in a market with the venue's TP/SL orders (distances from the average
   * entry), kept equal to the position by the engine; overrides its `protection:` there while set.
   */
  protect(fields: Draft<ProtectIntent>): ProtectIntent;
  /** Stops protecting its position in a market (its TP/SL orders are cancelled): `protect` with `off: true`. */
  unprotect(fields: { readonly marketId: number }): ProtectIntent;
  /** An entry (built with `placeLimit` or `placeMarket`) and the protection of what it fills, in its market. */
  bracket(fields: Omit<Draft<BracketIntent>, 'marketId'>): BracketIntent;
}

export function createIntentFactory(strategy: string, runId: string): IntentFactory {
  let counter = 0;
  // `{ ...f, strategy, intentId }`, copied with Object.assign: V8 (node 20) gives a spread copy that
  // then gains keys two new hidden classes every time, about 4 µs per intent (tick_to_trade).
  const stamp = <F extends object>(f: F) =>
    Object.assign({}, f, { strategy, intentId: `${strategy}-${runId}-${++counter}` });
  return {
    placeLimit: (f) => placeLimit(stamp(f)),
    placeMarket: (f) => placeMarket(stamp(f)),
    cancel: (f) => cancel(stamp(f)),
    cancelAll: (f) => cancelAll(stamp(f)),
    closePosition: (f) => closePosition(stamp(f)),
    setLeverage: (f) => setLeverage(stamp(f)),
    setMarginMode: (f) => setMarginMode(stamp(f)),
    adjustIsolatedMargin: (f) => adjustIsolatedMargin(stamp(f)),
    replace: (f) => replace(stamp(f)),
    quote: (f) => quote(stamp(f)),
    protect: (f) => protect(stamp(f)),
    unprotect: (f) => protect(stamp({ marketId: f.marketId, off: true })),
    bracket: (f) => bracket(stamp(f)),
  };
}

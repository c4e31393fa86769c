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
} from './intents.js';

/**
 * Constructors that fill the safe defaults so strategies write only what matters: a limit order
 * is GTC, not post-only and not reduce-only unless it says so; a market order is IOC.
 */

type Optional<T, K extends keyof T> = Omit<T, K | 'kind'> & Partial<Pick<T, K>>;

export function placeLimit(
  fields: Optional<PlaceLimitIntent, 'timeInForce' | 'postOnly' | 'reduceOnly'>,
): PlaceLimitIntent {
  return { timeInForce: 'GTC', postOnly: false, reduceOnly: false, ...fields, kind: 'placeLimit' };
}

export function placeMarket(fields: Optional<PlaceMarketIntent, 'timeInForce' | 'reduceOnly'>): PlaceMarketIntent {
  return { timeInForce: 'IOC', reduceOnly: false, ...fields, kind: 'placeMarket' };
}

export function cancel(fields: Omit<CancelIntent, 'kind'>): CancelIntent {
  return { ...fields, kind: 'cancel' };
}

export function cancelAll(fields: Omit<CancelAllIntent, 'kind'>): CancelAllIntent {
  return { ...fields, kind: 'cancelAll' };
}

export function closePosition(fields: Omit<ClosePositionIntent, 'kind'>): ClosePositionIntent {
  return { ...fields, kind: 'closePosition' };
}

export function setLeverage(fields: Omit<SetLeverageIntent, 'kind'>): SetLeverageIntent {
  return { ...fields, kind: 'setLeverage' };
}

export function setMarginMode(fields: Optional<SetMarginModeIntent, 'policy'>): SetMarginModeIntent {
  return { policy: 'refuse', ...fields, kind: 'setMarginMode' };
}

export function adjustIsolatedMargin(fields: Omit<AdjustIsolatedMarginIntent, 'kind'>): AdjustIsolatedMarginIntent {
  return { ...fields, kind: 'adjustIsolatedMargin' };
}

export function replace(fields: Omit<ReplaceIntent, 'kind'>): ReplaceIntent {
  return { ...fields, kind: 'replace' };
}

export function quote(fields: Omit<QuoteIntent, 'kind'>): QuoteIntent {
  return { ...fields, kind: 'quote' };
}

export function protect(fields: Omit<ProtectIntent, 'kind'>): ProtectIntent {
  return { ...fields, kind: 'protect' };
}

/** A bracket in the entry's market. */
export function bracket(fields: Omit<BracketIntent, 'kind' | 'marketId'>): BracketIntent {
  return { ...fields, marketId: fields.entry.marketId, kind: 'bracket' };
}

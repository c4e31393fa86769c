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
 *
 * Copied with Object.assign, not a spread: the same keys in the same order, but a spread of the
 * object a strategy's intent factory stamps (itself an Object.assign copy) cost 2 to 3 µs on
 * Node 20, against under 1 µs, and a strategy that states a quote target at every mark builds one
 * intent a mark.
 */

type Optional<T, K extends keyof T> = Omit<T, K | 'kind'> & Partial<Pick<T, K>>;

export function placeLimit(
  fields: Optional<PlaceLimitIntent, 'timeInForce' | 'postOnly' | 'reduceOnly'>,
): PlaceLimitIntent {
  return Object.assign({ timeInForce: 'GTC' as const, postOnly: false, reduceOnly: false }, fields, {
    kind: 'placeLimit' as const,
  });
}

export function placeMarket(fields: Optional<PlaceMarketIntent, 'timeInForce' | 'reduceOnly'>): PlaceMarketIntent {
  return Object.assign({ timeInForce: 'IOC' as const, reduceOnly: false }, fields, { kind: 'placeMarket' as const });
}

export function cancel(fields: Omit<CancelIntent, 'kind'>): CancelIntent {
  return Object.assign({}, fields, { kind: 'cancel' as const });
}

export function cancelAll(fields: Omit<CancelAllIntent, 'kind'>): CancelAllIntent {
  return Object.assign({}, fields, { kind: 'cancelAll' as const });
}

export function closePosition(fields: Omit<ClosePositionIntent, 'kind'>): ClosePositionIntent {
  return Object.assign({}, fields, { kind: 'closePosition' as const });
}

export function setLeverage(fields: Omit<SetLeverageIntent, 'kind'>): SetLeverageIntent {
  return Object.assign({}, fields, { kind: 'setLeverage' as const });
}

export function setMarginMode(fields: Optional<SetMarginModeIntent, 'policy'>): SetMarginModeIntent {
  return Object.assign({ policy: 'refuse' as const }, fields, { kind: 'setMarginMode' as const });
}

export function adjustIsolatedMargin(fields: Omit<AdjustIsolatedMarginIntent, 'kind'>): AdjustIsolatedMarginIntent {
  return Object.assign({}, fields, { kind: 'adjustIsolatedMargin' as const });
}

export function replace(fields: Omit<ReplaceIntent, 'kind'>): ReplaceIntent {
  return Object.assign({}, fields, { kind: 'replace' as const });
}

export function quote(fields: Omit<QuoteIntent, 'kind'>): QuoteIntent {
  return Object.assign({}, fields, { kind: 'quote' as const });
}

export function protect(fields: Omit<ProtectIntent, 'kind'>): ProtectIntent {
  return Object.assign({}, fields, { kind: 'protect' as const });
}

/** A bracket in the entry's market. */
export function bracket(fields: Omit<BracketIntent, 'kind' | 'marketId'>): BracketIntent {
  return Object.assign({}, fields, { marketId: fields.entry.marketId }, { kind: 'bracket' as const });
}

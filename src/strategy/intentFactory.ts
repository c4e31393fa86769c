import {
  adjustIsolatedMargin,
  cancel,
  cancelAll,
  closePosition,
  placeLimit,
  placeMarket,
  setLeverage,
  setMarginMode,
} from '../engine/intents/intentBuilders.js';
import type {
  AdjustIsolatedMarginIntent,
  CancelAllIntent,
  CancelIntent,
  ClosePositionIntent,
  PlaceLimitIntent,
  PlaceMarketIntent,
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
}

export function createIntentFactory(strategy: string, runId: string): IntentFactory {
  let counter = 0;
  const stamp = () => ({ strategy, intentId: `${strategy}-${runId}-${++counter}` });
  return {
    placeLimit: (f) => placeLimit({ ...f, ...stamp() }),
    placeMarket: (f) => placeMarket({ ...f, ...stamp() }),
    cancel: (f) => cancel({ ...f, ...stamp() }),
    cancelAll: (f) => cancelAll({ ...f, ...stamp() }),
    closePosition: (f) => closePosition({ ...f, ...stamp() }),
    setLeverage: (f) => setLeverage({ ...f, ...stamp() }),
    setMarginMode: (f) => setMarginMode({ ...f, ...stamp() }),
    adjustIsolatedMargin: (f) => adjustIsolatedMargin({ ...f, ...stamp() }),
  };
}

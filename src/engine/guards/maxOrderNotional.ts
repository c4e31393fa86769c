import { parseDecimal } from '../../core/decimal.js';
import type { GuardConfig } from '../config/engineConfig.js';
import { compareFixed, fixedText } from '../checks/fixedPoint.js';
import { isPlaceIntent, type Intent } from '../intents/intents.js';
import { refusal } from '../intents/refusal.js';
import { ALLOW, refused, type GuardState, type GuardVerdict } from './guardState.js';
import { notional, valuationPrice } from './orderExposure.js';

/** Caps size × price of one order (the mark for market orders), reduce-only orders included. */
export function checkMaxOrderNotional(state: GuardState, intent: Intent, config: GuardConfig): GuardVerdict {
  if (!isPlaceIntent(intent)) return ALLOW;
  const price = valuationPrice(state, intent);
  if (price === undefined) {
    return refused(
      refusal(
        'max_order_notional',
        intent.marketId,
        'no mark price for this market, so the order notional is unknown',
        'wait for the oracle',
      ),
    );
  }
  const value = notional(parseDecimal(intent.size, 'value'), price);
  if (compareFixed(value, parseDecimal(config.maxOrderNotional, 'value')) <= 0) return ALLOW;
  const text = fixedText(value);
  return refused(
    refusal(
      'max_order_notional',
      text,
      `order notional ${text} exceeds the limit of ${config.maxOrderNotional}`,
      'reduce the size or raise guards.maxOrderNotional',
    ),
  );
}

import { parseDecimal } from '../../core/decimal.js';
import type { GuardConfig } from '../config/engineConfig.js';
import { absFixed, compareFixed, fixedText } from '../checks/fixedPoint.js';
import { isPlaceIntent, type Intent } from '../intents/intents.js';
import { refusal } from '../intents/refusal.js';
import { ALLOW, refused, type GuardState, type GuardVerdict } from './guardState.js';
import { notional, positionAfter } from './orderExposure.js';

/**
 * Caps |position after this order fills| × mark, per market. Reduce-only orders cannot grow a
 * position, so they pass; an order that shrinks an oversized position also passes.
 */
export function checkMaxPosition(state: GuardState, intent: Intent, config: GuardConfig): GuardVerdict {
  if (!isPlaceIntent(intent) || intent.reduceOnly) return ALLOW;
  const limit = config.maxPositionNotionalByMarket[String(intent.marketId)] ?? config.maxPositionNotional;
  const price = state.marks.get(intent.marketId) ?? (intent.kind === 'placeLimit' ? intent.price : undefined);
  if (price === undefined) {
    return refused(
      refusal(
        'max_position',
        intent.marketId,
        'no mark price for this market, so the position value is unknown',
        'wait for the oracle',
      ),
    );
  }
  const after = absFixed(positionAfter(state, intent));
  const value = notional(after, price);
  if (compareFixed(value, parseDecimal(limit, 'value')) <= 0) return ALLOW;
  const current = state.positions.get(intent.marketId);
  if (current !== undefined && compareFixed(after, parseDecimal(current.size, 'value')) < 0) return ALLOW;
  const text = fixedText(value);
  return refused(
    refusal(
      'max_position',
      text,
      `position value after this order, ${text}, exceeds the limit of ${limit} for market ${intent.marketId}`,
      'reduce the size or raise guards.maxPositionNotional',
    ),
  );
}

import { type FixedPoint, parseDecimal } from '../../core/decimal.js';
import { addFixed, multiplyFixed, negateFixed } from '../checks/fixedPoint.js';
import type { PlaceIntent } from '../intents/intents.js';
import type { GuardState } from './guardState.js';

/**
 * Exact size and notional arithmetic the size guards share, on parsed decimals so each operand is
 * parsed once per decision. Intents reaching the guards have been through the pre-trade checks,
 * so their sizes and prices are already on the market grid.
 */

/** The price an order is valued at: its limit price, or the mark for a market order. */
export function valuationPrice(state: GuardState, intent: PlaceIntent): string | undefined {
  if (intent.kind === 'placeLimit') return intent.price;
  return state.marks.get(intent.marketId);
}

export function notional(size: FixedPoint, price: string): FixedPoint {
  return multiplyFixed(size, parseDecimal(price, 'value'));
}

/** Signed position after the order fills completely: long positive, short negative. */
export function positionAfter(state: GuardState, intent: PlaceIntent): FixedPoint {
  const position = state.positions.get(intent.marketId);
  const size = parseDecimal(intent.size, 'size');
  const delta = intent.side === 'buy' ? size : negateFixed(size);
  if (position === undefined) return delta;
  const current = parseDecimal(position.size, 'position size');
  return addFixed(position.side === 'buy' ? current : negateFixed(current), delta);
}

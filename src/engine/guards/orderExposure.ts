import { addDecimals, multiplyDecimals, negateDecimal } from '../../core/decimal.js';
import type { PlaceIntent } from '../intents.js';
import type { GuardState } from './guardState.js';

/**
 * Exact size and notional arithmetic the size guards share. Intents reaching the guards have
 * been through the pre-trade checks, so their sizes and prices are already on the market grid.
 */

/** The price an order is valued at: its limit price, or the mark for a market order. */
export function valuationPrice(state: GuardState, intent: PlaceIntent): string | undefined {
  if (intent.kind === 'placeLimit') return intent.price;
  return state.marks.get(intent.marketId);
}

export function notional(size: string, price: string): string {
  return multiplyDecimals(size, price);
}

/** Signed position after the order fills completely: long positive, short negative. */
export function positionAfter(state: GuardState, intent: PlaceIntent): string {
  const position = state.positions.get(intent.marketId);
  const current = position === undefined ? '0' : position.side === 'buy' ? position.size : negateDecimal(position.size, 'position size');
  const delta = intent.side === 'buy' ? intent.size : negateDecimal(intent.size, 'size');
  return addDecimals(current, delta, 'size');
}

export function absDecimal(value: string): string {
  return value.startsWith('-') ? value.slice(1) : value;
}

import { compareDecimals, countUnits, multiplyUnits, type Rounding } from '../core/decimal.js';
import { InvalidValueError } from '../core/invalidValueError.js';
import type { MarketView } from '../engine/checks/marketView.js';

/**
 * Snapping prices and sizes to a market's grid before an intent leaves, so the strategy knows the
 * exact values it sends (the intent's own `priceRounding`/`sizeRounding` do the same inside the
 * engine, but then the strategy never sees the result).
 */

/** The price as a whole number of ticks: `roundToTick('100.07', '0.05', 'down')` is "100.05". */
export function roundToTick(price: string, tick: string, rounding: Rounding): string {
  return multiplyUnits(countUnits(price, tick, 'price', rounding), tick, 'tick');
}

/** The size as a whole number of steps: `roundToStep('0.0037', '0.001', 'down')` is "0.003". */
export function roundToStep(size: string, step: string, rounding: Rounding): string {
  return multiplyUnits(countUnits(size, step, 'size', rounding), step, 'step');
}

/** A market's price tick, size step and minimum size, from its venue record. */
export function marketGrid(market: MarketView): {
  readonly tick: string;
  readonly step: string;
  readonly minSize: string;
} {
  return { tick: market.config.step_price, step: market.config.step_size, minSize: market.config.min_order_size };
}

/** Whether an order of `size` may be sent at all: at least the market's minimum order size. */
export function meetsMinSize(size: string, market: MarketView): boolean {
  return compareDecimals(size, market.config.min_order_size) >= 0;
}

/**
 * `size` raised to the market's minimum order size when below it (and kept when at or above). A
 * negative size is a mistake and throws; round to the step first when the size may be off-grid.
 */
export function clampToMinSize(size: string, market: MarketView): string {
  if (compareDecimals(size, '0') < 0) throw new InvalidValueError('size', size, 'a size of zero or more');
  return meetsMinSize(size, market) ? size : market.config.min_order_size;
}

/**
 * A size ready to send: rounded to the market's step (as named), or undefined when the rounded
 * size is below the minimum order size (nothing valid can be sent for it).
 */
export function tradableSize(size: string, market: MarketView, rounding: Rounding): string | undefined {
  const rounded = roundToStep(size, market.config.step_size, rounding);
  return meetsMinSize(rounded, market) && compareDecimals(rounded, '0') > 0 ? rounded : undefined;
}

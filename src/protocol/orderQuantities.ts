import { countUnits, multiplyUnits, type Rounding } from '../core/decimal.js';
import { checkRange, uintMax } from '../core/integerRange.js';

/**
 * Decimal size and price to the integer steps and ticks the order word carries (spec "Order
 * quantities"), exactly. Off-grid values are errors unless the caller names a rounding mode.
 */
export const MAX_SIZE_STEPS = uintMax(32);
export const MAX_PRICE_TICKS = uintMax(24); // 16,777,215

/** size / step_size, a whole number in 1 .. uint32 max. */
export function sizeToSteps(size: string, stepSize: string, rounding?: Rounding): bigint {
  const steps = countUnits(size, stepSize, 'size', rounding);
  return checkRange(steps, 1n, MAX_SIZE_STEPS, 'size_steps');
}

/** price / step_price, a whole number in 1 .. 16,777,215 (uint24). */
export function priceToTicks(price: string, stepPrice: string, rounding?: Rounding): bigint {
  const ticks = countUnits(price, stepPrice, 'price', rounding);
  return checkRange(ticks, 1n, MAX_PRICE_TICKS, 'price_ticks');
}

export function stepsToSize(steps: bigint | number, stepSize: string): string {
  return multiplyUnits(BigInt(steps), stepSize, 'step_size');
}

export function ticksToPrice(ticks: bigint | number, stepPrice: string): string {
  return multiplyUnits(BigInt(ticks), stepPrice, 'step_price');
}

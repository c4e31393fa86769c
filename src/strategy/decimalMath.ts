import {
  addDecimals,
  compareDecimals,
  divideRounded,
  fixedToDecimal,
  negateDecimal,
  parseDecimal,
  pow10,
  type Rounding,
} from '../core/decimal.js';
import { InvalidValueError } from '../core/invalidValueError.js';

/**
 * Exact decimal arithmetic on strings for strategies. Sums, differences and products are exact;
 * a quotient is rounded to the number of places the caller names, with the rounding the caller
 * names: nothing is ever rounded silently.
 */

/** a − b, exactly. */
export function subtractDecimals(a: string, b: string, field = 'value'): string {
  return addDecimals(a, negateDecimal(b, field), field);
}

/**
 * a ÷ b to `places` decimals, rounded as named (`down` toward −∞, `up` toward +∞, `nearest` half
 * away from zero). `divideDecimals('1', '3', 4, 'down')` is "0.3333". Division by zero throws.
 */
export function divideDecimals(a: string, b: string, places: number, rounding: Rounding, field = 'value'): string {
  if (!Number.isSafeInteger(places) || places < 0 || places > 36)
    throw new InvalidValueError(`${field} places`, places, 'a whole number of decimal places from 0 to 36');
  const x = parseDecimal(a, field);
  const y = parseDecimal(b, `${field} divisor`);
  if (y.units === 0n)
    throw new InvalidValueError(`${field} divisor`, b, 'a non-zero decimal', 'check the divisor before dividing');
  // a/b = (x.units / 10^x.scale) / (y.units / 10^y.scale); scaled by 10^places.
  const numerator = x.units * pow10(places + y.scale);
  const denominator = y.units * pow10(x.scale);
  return fixedToDecimal(divideRounded(numerator, denominator, rounding), places);
}

export function minDecimal(a: string, b: string): string {
  return compareDecimals(a, b) <= 0 ? a : b;
}

export function maxDecimal(a: string, b: string): string {
  return compareDecimals(a, b) >= 0 ? a : b;
}

export function isZero(a: string): boolean {
  return compareDecimals(a, '0') === 0;
}

export function isPositive(a: string): boolean {
  return compareDecimals(a, '0') > 0;
}

export function isNegative(a: string): boolean {
  return compareDecimals(a, '0') < 0;
}

export { type Rounding };

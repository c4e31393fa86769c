import { parseDecimal, pow10 } from './decimal.js';
import { InvalidValueError } from './invalidValueError.js';

/**
 * Money as a person reads it: a fixed number of decimal places, rounded half to even (a tie goes
 * to the even last digit, so rounding many figures has no drift up or down). Only what is shown is
 * rounded; the exact decimal strings stay in JSON, the journal and the ledger.
 */

/**
 * USDC on screen: 6 places, the USDC token's decimals. The venue's wire carries USDC at 18
 * (a balance reads "999.853798214999999996"); docs/spec-gaps/runtime.md, "Operations surface".
 */
export const USDC_PLACES = 6;

/** `value` rounded half to even to `places`, as units of 10^-places (`("1.25", 1)` → 12n). */
export function roundHalfEven(value: string, places: number, field = 'value'): bigint {
  const { units, scale } = parseDecimal(value, field);
  if (scale <= places) return units * pow10(places - scale);
  const divisor = pow10(scale - places);
  const negative = units < 0n;
  const magnitude = negative ? -units : units;
  let q = magnitude / divisor;
  const twice = (magnitude % divisor) * 2n;
  if (twice > divisor || (twice === divisor && q % 2n === 1n)) q += 1n;
  return negative ? -q : q;
}

/** Units of 10^-places with every place written: `(12n, 2)` → "0.12", `(-5n, 3)` → "-0.005", `(0n, 2)` → "0.00". */
export function formatPlaces(units: bigint, places: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(places + 1, '0');
  const whole = digits.slice(0, digits.length - places);
  const body = places === 0 ? whole : `${whole}.${digits.slice(digits.length - places)}`;
  return negative ? `-${body}` : body;
}

/** `value` shown with `places` decimals, half to even: ("999.853798214999999996", 6) → "999.853798". */
export function toPlaces(value: string, places: number, field?: string): string {
  return formatPlaces(roundHalfEven(value, places, field), places);
}

/** The decimal places of a grid step, trailing zeros aside: "0.1" → 1, "0.00001" → 5, "0.50" → 1, "1" → 0. */
export function placesOf(step: string): number {
  const { units, scale } = parseDecimal(step, 'step');
  if (units <= 0n) throw new InvalidValueError('step', step, 'a positive decimal such as "0.1"');
  let places = scale;
  let rest = units;
  while (places > 0 && rest % 10n === 0n) {
    rest /= 10n;
    places -= 1;
  }
  return places;
}

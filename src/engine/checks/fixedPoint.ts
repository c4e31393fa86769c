import { fixedToDecimal, pow10, type FixedPoint } from '../../core/decimal.js';

/**
 * Exact arithmetic on decimals parsed once (`parseDecimal`), for the per-intent path: the string
 * helpers of core/decimal parse both operands and format the result on every call, and a checked
 * order went through dozens of those. Same results, as bigints with an explicit scale.
 */

const SMALL_POWERS = Array.from({ length: 40 }, (_, i) => 10n ** BigInt(i));

function power10(exponent: number): bigint {
  return SMALL_POWERS[exponent] ?? pow10(exponent);
}

/** The value's units at a scale at least its own: 1.5 at scale 3 -> 1500n. */
export function unitsAt(value: FixedPoint, scale: number): bigint {
  return value.units * power10(scale - value.scale);
}

export function compareFixed(a: FixedPoint, b: FixedPoint): -1 | 0 | 1 {
  const scale = Math.max(a.scale, b.scale);
  const l = unitsAt(a, scale);
  const r = unitsAt(b, scale);
  return l < r ? -1 : l > r ? 1 : 0;
}

export function multiplyFixed(a: FixedPoint, b: FixedPoint): FixedPoint {
  return { units: a.units * b.units, scale: a.scale + b.scale };
}

export function addFixed(a: FixedPoint, b: FixedPoint): FixedPoint {
  const scale = Math.max(a.scale, b.scale);
  return { units: unitsAt(a, scale) + unitsAt(b, scale), scale };
}

export function negateFixed(a: FixedPoint): FixedPoint {
  return { units: -a.units, scale: a.scale };
}

export function absFixed(a: FixedPoint): FixedPoint {
  return a.units < 0n ? negateFixed(a) : a;
}

/** Canonical decimal string, as the string helpers return it ("1.50" -> "1.5"). */
export function fixedText(a: FixedPoint): string {
  return fixedToDecimal(a.units, a.scale);
}

import { addDecimals, compareDecimals, decimalOrUndefined, fixedToDecimal, negateDecimal } from '../../core/decimal.js';

/**
 * size − filled, never below zero. A refused intent may carry a size that is not a decimal at all
 * (that is why it was refused): its event shows the size as sent instead of throwing.
 *
 * Nothing filled (every event of an order until its first fill, two of them before a placement is
 * written to the socket) is the size itself in its canonical form, read from the parse memo:
 * the general way negated "0", added it and parsed the new sum again, three decimal texts made
 * and one parsed per event. The same text as `remainingByArithmetic` (property test).
 */
export function remainingSize(size: string, filled: string): string {
  return filled === '0' ? unfilledRemaining(size) : remainingByArithmetic(size, filled);
}

/** The general way, and the reference of the unfilled one. */
export function remainingByArithmetic(size: string, filled: string): string {
  try {
    const remaining = addDecimals(size, negateDecimal(filled));
    return compareDecimals(remaining, '0') < 0 ? '0' : remaining;
  } catch {
    return size;
  }
}

function unfilledRemaining(size: string): string {
  const value = decimalOrUndefined(size);
  if (value === undefined) return size;
  if (value.units < 0n) return '0';
  return isCanonical(size) ? size : fixedToDecimal(value.units, value.scale);
}

/**
 * A decimal text (already parsed) as `fixedToDecimal` writes it: no sign (a negative one was
 * handled), no leading zero but a lone one, no trailing zero or point in the fraction.
 */
function isCanonical(text: string): boolean {
  if (text.charCodeAt(0) === 45) return false; // "-": "-0" and its kin are written "0"
  const dot = text.indexOf('.');
  const whole = dot < 0 ? text.length : dot;
  if (whole > 1 && text.charCodeAt(0) === 48) return false; // "01"
  return dot < 0 || text.charCodeAt(text.length - 1) !== 48; // "1.50"
}

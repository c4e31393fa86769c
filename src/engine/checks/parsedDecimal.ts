import { parseDecimal, type FixedPoint } from '../../core/decimal.js';

/**
 * `parseDecimal` with a bounded memo, for the per-intent path: an order's size, its snapped
 * price, the mark and the configured limits are parsed by the grid and again by two guards, and
 * the same texts recur from order to order. Parsed values are frozen, so sharing them is safe; a
 * text that does not parse is never remembered (it throws, naming `field`, every time).
 */
const memo = new Map<string, FixedPoint>();
const MAX_ENTRIES = 4_096;

export function parsedDecimal(text: unknown, field: string): FixedPoint {
  if (typeof text === 'string') {
    const known = memo.get(text);
    if (known !== undefined) return known;
  }
  const value = Object.freeze(parseDecimal(text, field));
  if (memo.size >= MAX_ENTRIES) memo.clear();
  memo.set(text as string, value);
  return value;
}

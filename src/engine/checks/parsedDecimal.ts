import { isDecimalString, parseDecimal, type FixedPoint } from '../../core/decimal.js';
import { BoundedMap } from '../../core/boundedMap.js';

/**
 * `parseDecimal` with a bounded memo, for the per-intent path: the same texts recur from order to
 * order (sizes, prices on a grid, the mark, the configured limits), and a hit costs a map lookup
 * instead of a pattern match and a bigint. Parsed values are frozen, so sharing them is safe; a
 * text that does not parse is never remembered.
 */
const memo = new BoundedMap<string, FixedPoint>(4_096);

/** The parsed value; throws `InvalidValueError` naming `field` for a text that is not a decimal string. */
export function parsedDecimal(text: unknown, field: string): FixedPoint {
  if (typeof text === 'string') {
    const known = memo.get(text);
    if (known !== undefined) return known;
  }
  return remember(text as string, parseDecimal(text, field));
}

/** The parsed value, or undefined for anything but a decimal string: for checks that refuse it by their own rule. */
export function decimalOrUndefined(text: unknown): FixedPoint | undefined {
  if (typeof text !== 'string') return undefined;
  const known = memo.get(text);
  if (known !== undefined) return known;
  return isDecimalString(text) ? remember(text, parseDecimal(text, 'value')) : undefined;
}

/**
 * Records a decimal text with the exact value it was formatted from (`fixedText`), so that whoever
 * reads the text next finds it parsed: the pre-trade checks do this for an order's snapped size
 * and price, which the guards read right after. The value must equal the text's (any scale).
 */
export function rememberDecimal(text: string, value: FixedPoint): void {
  // A text seen before is already there with an equal value (the common case: recurring prices).
  if (!memo.has(text)) remember(text, value);
}

function remember(text: string, value: FixedPoint): FixedPoint {
  const frozen = Object.freeze(value);
  memo.set(text, frozen);
  return frozen;
}

/**
 * The statistics of a paired comparison (bench/compareSims.ts, bench/compareReplays.ts): a base
 * commit and this checkout take the same work round by round, so a change of load on a shared
 * machine falls on both of a pair; each pair's checkout/base ratio, and the median of the
 * ratios, are the figure.
 */

/**
 * The two sides in the order they run in `round`: the base first in even rounds, the checkout
 * first in odd ones, so neither always runs in the other's wake (its garbage, its cache misses).
 */
export function pairOrder<T>(round: number, base: T, checkout: T): readonly [T, T] {
  return round % 2 === 0 ? [base, checkout] : [checkout, base];
}

/** The upper middle of the sorted values (NaN for none): always one measured value, never a mean of two. */
export function upperMedian(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
}

/** Each pair's checkout/base ratio (NaN where the base has no value). */
function pairRatios(base: readonly number[], checkout: readonly number[]): number[] {
  return checkout.map((value, i) => value / (base[i] ?? Number.NaN));
}

/** `checkout/base per pair 0.98 1.03 …, median 1.004`: the figure's line. */
export function pairRatiosText(base: readonly number[], checkout: readonly number[]): string {
  const ratios = pairRatios(base, checkout);
  return `checkout/base per pair ${ratios.map((r) => r.toFixed(2)).join(' ')}, median ${upperMedian(ratios).toFixed(3)}`;
}

import { addDecimals, compareDecimals, isDecimalString, multiplyDecimals } from '../../core/decimal.js';
import type { TrackedPosition } from '../tracking/positionBook.js';
import type { TrackedOrder } from '../orders/trackedOrder.js';

/** What the estimate reads: the account as the engine tracks it. */
export interface MarginInputs {
  readonly balance: string | undefined;
  /** The account's live orders (the old one of a replacement among them). */
  readonly orders: readonly TrackedOrder[];
  readonly positions: readonly TrackedPosition[];
  markOf(marketId: number): string | undefined;
}

/**
 * Whether a make-before-break replacement may put its new order on the book while the old one still
 * rests: the balance covers the notional of every open order and position plus the new order, as if
 * unleveraged. An estimate on the safe side (the venue's leverage would need less); when anything is
 * unknown (no balance yet, a position without a price, a value that is not a decimal) it says no, and
 * the replacement breaks before it makes, which never needs more margin than the old order did.
 */
export function marginCoversBoth(
  placement: { readonly size: string; readonly price: string },
  m: MarginInputs,
): boolean {
  if (m.balance === undefined || !isDecimalString(placement.size) || !isDecimalString(placement.price)) return false;
  let used = multiplyDecimals(placement.size, placement.price);
  for (const o of m.orders) {
    if (o.market === true) continue;
    used = addDecimals(used, multiplyDecimals(o.size, o.price));
  }
  for (const p of m.positions) {
    const price = m.markOf(p.marketId) ?? p.avgEntryPrice;
    if (price === undefined) return false;
    used = addDecimals(used, multiplyDecimals(p.size, price));
  }
  return compareDecimals(m.balance, used) >= 0;
}

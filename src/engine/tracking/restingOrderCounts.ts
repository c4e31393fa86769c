import type { ForeignOrders } from './foreignOrders.js';
import { isResting, type TrackedOrder } from '../orders/trackedOrder.js';

/**
 * How many of our orders rest on the book per market, kept as each order changes state, so the
 * open-orders guard, which reads it for every intent, never walks the orders.
 */
export class RestingOrderCounts {
  private readonly counts = new Map<number, number>();

  /** One order moved from `before` (undefined: new) to `after`. */
  onChange(before: TrackedOrder | undefined, after: TrackedOrder): void {
    const delta = (isResting(after.state) ? 1 : 0) - (before !== undefined && isResting(before.state) ? 1 : 0);
    if (delta === 0) return;
    const n = (this.counts.get(after.marketId) ?? 0) + delta;
    if (n > 0) this.counts.set(after.marketId, n);
    else this.counts.delete(after.marketId);
  }

  /** Ours and the foreign ones per market: what the guards count, as a copy for one decision. */
  withForeign(foreign: ForeignOrders): Map<number, number> {
    const counts = new Map(this.counts);
    foreign.addCountsTo(counts);
    return counts;
  }
}

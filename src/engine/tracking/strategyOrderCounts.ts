import { StrategyMarketMap } from './strategyMarketMap.js';
import { isResting, isTerminal, type TrackedOrder } from '../orders/trackedOrder.js';

/** A strategy's live limit orders in one market: those it still wants, and how many of them rest. */
export interface WantedOrderCount {
  readonly wanted: number;
  readonly held: number;
}

interface Counts {
  wanted: number;
  held: number;
  /** Resting or unknown: what the strategy's budget counts as its orders on the venue. */
  onVenue: number;
  /** Counts every change of a live order (or of a cancel asked of one): see `revision`. */
  changes: number;
}

const NONE: WantedOrderCount = { wanted: 0, held: 0 };

/**
 * Per strategy and market, counts kept as each order changes (and as a cancel is asked or
 * dropped), so what every intent and every order event reads (the strategy budget's open orders,
 * the quote uptime's coverage) never walks the open orders: with thousands open, the walks made
 * each intent cost more than signing it.
 */
export class StrategyOrderCounts {
  private readonly counts = new StrategyMarketMap<Counts>();

  /** The order moved from `before` (undefined: new) to `after`; `asked`: a cancel of ours asked it to go. */
  onChange(before: TrackedOrder | undefined, after: TrackedOrder, asked: boolean): void {
    if (before !== undefined) this.add(before, asked, -1);
    this.add(after, asked, 1);
  }

  /** A cancel of ours was asked for the order (`asked`), or the one asked was dropped. */
  onAsked(order: TrackedOrder | undefined, asked: boolean): void {
    if (order === undefined) return;
    this.add(order, !asked, -1);
    this.add(order, asked, 1);
  }

  /** The live limit orders the strategy wants in the market (no cancel asked), and how many rest. */
  wanted(strategy: string, marketId: number): WantedOrderCount {
    const counts = this.counts.get(strategy, marketId);
    return counts === undefined ? NONE : { wanted: counts.wanted, held: counts.held };
  }

  /**
   * A number that moves whenever a live order of the strategy in the market changes at all (its
   * state, terms or fills, a cancel asked or dropped, an order new or ended), and only then: what
   * a reader of the open orders compares to reuse what it made of them (the quote keeper's plan
   * of a target, the uptime's coverage), rather than walk them again on every mark.
   */
  revision(strategy: string, marketId: number): number {
    return this.counts.get(strategy, marketId)?.changes ?? 0;
  }

  /** The strategy's orders resting or of unknown fate, per market. */
  onVenue(strategy: string): Map<number, number> {
    const out = new Map<number, number>();
    for (const marketId of this.counts.marketIds(strategy)) {
      const n = this.counts.get(strategy, marketId)?.onVenue ?? 0;
      if (n > 0) out.set(marketId, n);
    }
    return out;
  }

  private add(order: TrackedOrder, asked: boolean, sign: 1 | -1): void {
    if (isTerminal(order.state)) return;
    let counts = this.counts.get(order.strategy, order.marketId);
    if (counts === undefined) {
      counts = { wanted: 0, held: 0, onVenue: 0, changes: 0 };
      this.counts.set(order.strategy, order.marketId, counts);
    }
    counts.changes++;
    const resting = isResting(order.state);
    if (resting || order.state === 'unknown') counts.onVenue += sign;
    if (order.market === true || asked) return;
    counts.wanted += sign;
    if (resting) counts.held += sign;
  }
}

/**
 * The live orders a cancel of this process asked to go (their end is `cancelled`, not `expired`),
 * kept with the counts: an order asked to go is no longer wanted.
 */
export class AskedCancels {
  private readonly asked = new Set<string>();

  constructor(private readonly counts: StrategyOrderCounts) {}

  has(intentId: string): boolean {
    return this.asked.has(intentId);
  }

  add(intentId: string, order: TrackedOrder | undefined): void {
    if (this.asked.has(intentId)) return;
    this.asked.add(intentId);
    this.counts.onAsked(order, true);
  }

  /** The cancel was dropped (`order` live: wanted again), or the order ended (`order` undefined). */
  delete(intentId: string, order: TrackedOrder | undefined): void {
    if (!this.asked.delete(intentId)) return;
    this.counts.onAsked(order, false);
  }
}

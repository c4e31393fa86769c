import { isResting, type TrackedOrder } from '../orders/trackedOrder.js';
import type { OrderTracker } from '../tracking/orderTracker.js';
import { StrategyMarketMap } from '../tracking/strategyMarketMap.js';
import { gridUnits } from './gridUnits.js';
import type { LivePlacements } from './livePlacements.js';
import { planQuotes, type LiveQuote, type QuotePlan, type WantedQuote } from './quotePlan.js';
import type { RetiringOrders } from './retiringOrders.js';
import type { QuoteGrid } from './wantedQuotes.js';

/** What the read of the live orders needs. */
export interface LiveQuotesDeps {
  readonly tracker: OrderTracker;
  readonly placements: LivePlacements;
  readonly retiring: RetiringOrders;
}

/** A strategy's live orders in a market as a target reads them, at one revision of them and one grid. */
interface LiveRead {
  readonly revision: number;
  readonly grid: QuoteGrid;
  readonly live: readonly LiveQuote[];
  /** The latest plan made against them, with the wanted orders it is for. */
  planned?: { readonly wanted: readonly WantedQuote[]; readonly plan: QuotePlan };
}

/**
 * A strategy's live limit orders in a market as a quote target reads them (those it may keep or
 * move), and the plan of its latest wanted orders against them, each kept until the orders (or
 * the keeper's retiring ones, or their placements) change: a strategy that states its whole
 * target at every mark is planned against the same live orders many times between two changes of
 * them, and reading and planning them again each time was most of a quote target's cost.
 */
export class LiveQuotes {
  private readonly reads = new StrategyMarketMap<LiveRead>();

  constructor(private readonly deps: LiveQuotesDeps) {}

  /**
   * Moves whenever anything a read of the strategy's live orders in the market depends on does:
   * the orders themselves (`StrategyOrderCounts.revision`), the placements behind them, or the
   * orders being retired. A sum of counters that only grow, so it moves when any of them does.
   */
  revision(strategy: string, marketId: number): number {
    const { tracker, placements, retiring } = this.deps;
    return tracker.orderCounts.revision(strategy, marketId) + placements.revision + retiring.revision;
  }

  /** The plan from the strategy's live orders in the market now to `wanted` (the same inputs give the same plan). */
  plan(strategy: string, marketId: number, grid: QuoteGrid, wanted: readonly WantedQuote[]): QuotePlan {
    const read = this.read(strategy, marketId, grid);
    if (read.planned?.wanted === wanted) return read.planned.plan;
    const plan = planQuotes(wanted, read.live);
    read.planned = { wanted, plan };
    return plan;
  }

  /** Drops what was read for the strategy (every strategy: no name); only memory, a later read reads again. */
  forget(strategy?: string): void {
    for (const { strategy: of, marketId } of this.reads.entries())
      if (strategy === undefined || of === strategy) this.reads.delete(of, marketId);
  }

  private read(strategy: string, marketId: number, grid: QuoteGrid): LiveRead {
    const revision = this.revision(strategy, marketId);
    const known = this.reads.get(strategy, marketId);
    if (known?.revision === revision && known.grid.tick === grid.tick && known.grid.step === grid.step) return known;
    const read: LiveRead = { revision, grid, live: this.liveQuotes(strategy, marketId, grid) };
    this.reads.set(strategy, marketId, read);
    return read;
  }

  /** The strategy's live limit orders in the market that a target may keep or move. */
  private liveQuotes(strategy: string, marketId: number, { tick, step }: QuoteGrid): LiveQuote[] {
    const { tracker, placements, retiring } = this.deps;
    const out: LiveQuote[] = [];
    for (const o of tracker.openOrders({ strategy, marketId })) {
      if (!offered(o) || retiring.has(o.intentId) || tracker.cancelRequested(o.intentId)) continue;
      const placed = placements.get(o.intentId);
      const ticks = gridUnits(placed?.price ?? o.price, tick, placed?.priceRounding ?? 'nearest');
      const left = gridUnits(o.size, step, placed?.sizeRounding ?? 'nearest');
      const filled = gridUnits(o.filledSize, step, 'nearest');
      if (ticks === undefined || left === undefined || filled === undefined) continue;
      out.push({ intentId: o.intentId, side: o.side, ticks, remainingSteps: left - filled });
    }
    return out;
  }
}

/** Orders a target may keep or move: limit orders on their way or resting (not one sent without an answer). */
function offered(o: TrackedOrder): boolean {
  return o.market !== true && (o.state === 'queued' || o.state === 'submitted' || isResting(o.state));
}

import type { Intent } from '../intents/intents.js';
import type { WantedOrderCount } from '../tracking/strategyOrderCounts.js';
import type { OrderTracker } from '../tracking/orderTracker.js';
import { isResting, type TrackedOrder } from '../orders/trackedOrder.js';
import { gridUnits } from './gridUnits.js';
import type { KeptTarget } from './quoteKeeper.js';
import { StrategyMarketMap, type StrategyMarketEntry } from '../tracking/strategyMarketMap.js';

/** Whether the venue holds what a strategy wants on a market, at one moment. */
export type QuoteCoverage = 'full' | 'partial' | 'none' | 'idle';

/** One strategy's quote uptime on one market, as `/api/status`, metrics and the replay report show it. */
export interface QuoteUptimeView {
  readonly strategy: string;
  readonly marketId: number;
  /** Time something was wanted on this market (ms): the figures' denominator. */
  readonly wantedMs: number;
  /** Of that, the time the venue held all of it (ms). */
  readonly heldMs: number;
  /** Share of that time the venue held every wanted order (0..1; null before anything was wanted). */
  readonly uptime: number | null;
  /** Share of it with at least one wanted order missing. */
  readonly missing: number | null;
  /** Share of it with every wanted order missing. */
  readonly none: number | null;
  /** Changes of what is wanted that the venue did not hold on arrival, each timed until it did. */
  readonly requotes: number;
  /** From such a change to the venue holding all of it (ms), over the last `LATENCIES_KEPT`. */
  readonly requoteLatencyMs: { readonly p50: number | null; readonly p99: number | null };
  /** Actions (places and cancels; a replacement is two) per such change. */
  readonly actionsPerRequote: number | null;
}

/** What the figure reads of the engine. */
export interface QuoteUptimeDeps {
  readonly tracker: OrderTracker;
  now(): number;
  /** The latest quote target of a strategy on a market (its wanted orders and tolerance). */
  target(strategy: string, marketId: number): KeptTarget | undefined;
  /** Whether a replacement is moving the order to a wanted one (it holds that one's place meanwhile). */
  isMoving(intentId: string): boolean;
  /** The market's price tick and size step. */
  grid(marketId: number): { readonly tick: string; readonly step: string } | undefined;
  /**
   * A number that moves whenever the strategy's live orders in the market change, or the orders a
   * replacement moves do (`LiveQuotes.revision`): the resting orders read at one are read again only after it moved.
   */
  revision(strategy: string, marketId: number): number;
}

const LATENCIES_KEPT = 1000;

interface Book {
  coverage: QuoteCoverage;
  sinceMs: number;
  readonly ms: Record<QuoteCoverage, number>;
  /** When the venue stopped holding what is wanted after a change of it; undefined while it holds it. */
  requoteSinceMs: number | undefined;
  actionsInRequote: number;
  requotes: number;
  actions: number;
  readonly latencies: number[];
}

/**
 * Quote uptime, measured from the order model's events and the strategies' quote targets (so a
 * replay measures it as a live run does): per strategy and market, the time the venue holds every
 * order the strategy wants (its quote target's orders within the target's tolerance, or else its
 * live limit orders at their prices) over the time it wants any; the share with one or all of them
 * missing; and for each change of what is wanted that the venue did not already hold, how long
 * until it did and how many actions it took.
 */
export class QuoteUptime {
  private readonly books = new StrategyMarketMap<Book>();
  /** Per strategy and market, the resting orders last read and their coverage of the last wanted orders. */
  private readonly reads = new StrategyMarketMap<RestingRead>();

  constructor(private readonly deps: QuoteUptimeDeps) {}

  /**
   * An order changed, or what is wanted did (`change`: a target taken with the actions it sent, or
   * a new order of a strategy without a target): the coverage of its strategy and market again.
   */
  touched(strategy: string, marketId: number, change?: { readonly actions: number }): void {
    const book = this.bookOf(strategy, marketId);
    const now = this.deps.now();
    const { coverage, exact } = this.coverage(strategy, marketId);
    book.ms[book.coverage] += now - book.sinceMs;
    book.sinceMs = now;
    book.coverage = coverage;
    if (change !== undefined && exact !== 'full' && exact !== 'idle') {
      if (book.requoteSinceMs === undefined) {
        book.requoteSinceMs = now;
        book.actionsInRequote = 0;
      }
      book.actionsInRequote += change.actions;
    }
    if ((exact === 'full' || exact === 'idle') && book.requoteSinceMs !== undefined) {
      book.requotes++;
      book.actions += book.actionsInRequote;
      book.latencies.push(now - book.requoteSinceMs);
      if (book.latencies.length > LATENCIES_KEPT) book.latencies.shift();
      book.requoteSinceMs = undefined;
    }
  }

  /**
   * An intent the engine runs for a strategy without a target on its market: a cancel counts toward
   * the requote under way (its placements come with the order they queue, a target's actions with
   * the target: `touched`).
   */
  acted(intent: Intent): void {
    const actions = intent.kind === 'cancel' || intent.kind === 'cancelAll' ? 1 : 0;
    if (actions === 0 || this.deps.target(intent.strategy, intent.marketId) !== undefined) return;
    const book = this.books.get(intent.strategy, intent.marketId);
    if (book?.requoteSinceMs !== undefined) book.actionsInRequote += actions;
  }

  /** Every strategy and market seen, with its figures up to now. */
  views(): QuoteUptimeView[] {
    const now = this.deps.now();
    return [...this.books.entries()].map((entry) => viewOf(entry, now));
  }

  private bookOf(strategy: string, marketId: number): Book {
    let book = this.books.get(strategy, marketId);
    if (book === undefined) {
      book = {
        coverage: 'idle',
        sinceMs: this.deps.now(),
        ms: { full: 0, partial: 0, none: 0, idle: 0 },
        requoteSinceMs: undefined,
        actionsInRequote: 0,
        requotes: 0,
        actions: 0,
        latencies: [],
      };
      this.books.set(strategy, marketId, book);
    }
    return book;
  }

  /**
   * The coverage the uptime counts (an order on its way to a wanted price holds it meanwhile), and
   * the exact one a requote waits for (every wanted order at its price, within tolerance).
   */
  private coverage(strategy: string, marketId: number): { coverage: QuoteCoverage; exact: QuoteCoverage } {
    const target = this.deps.target(strategy, marketId);
    // Only a target needs the grid: reading the market record copies it after every mark move.
    const grid = target === undefined ? undefined : this.deps.grid(marketId);
    if (target === undefined || grid === undefined) {
      const own = ownCoverage(this.deps.tracker.orderCounts.wanted(strategy, marketId));
      return { coverage: own, exact: own };
    }
    const read = this.restingRead(strategy, marketId, grid.tick);
    if (read.covered?.wanted !== target.wanted) {
      const { resting } = read;
      const coverage = {
        coverage: targetCoverage(target, resting, true),
        exact: targetCoverage(target, resting, false),
      };
      read.covered = { wanted: target.wanted, coverage };
    }
    return read.covered.coverage;
  }

  /**
   * The strategy's resting orders in the market, read again only once they (or the orders being
   * moved) changed: every mark's target and every order event asks for the coverage. Most order
   * events (queued, submitted, an answer) leave what rests as it was: the read then keeps its
   * coverage of the wanted orders, at the new revision.
   */
  private restingRead(strategy: string, marketId: number, tick: string): RestingRead {
    const revision = this.deps.revision(strategy, marketId);
    const known = this.reads.get(strategy, marketId);
    if (known?.revision === revision && known.tick === tick) return known;
    const resting = this.restingQuotes(strategy, marketId, tick);
    if (known?.tick === tick && sameQuotes(known.resting, resting)) {
      known.revision = revision;
      return known;
    }
    const read: RestingRead = { revision, tick, resting };
    this.reads.set(strategy, marketId, read);
    return read;
  }

  /** The strategy's resting limit orders in the market as the coverage reads them, in the tracker's order. */
  private restingQuotes(strategy: string, marketId: number, tick: string): RestingQuote[] {
    const out: RestingQuote[] = [];
    for (const o of this.deps.tracker.openOrders({ strategy, marketId })) {
      if (o.market === true || !isResting(o.state)) continue;
      out.push({ side: o.side, ticks: gridUnits(o.price, tick, 'nearest'), moving: this.deps.isMoving(o.intentId) });
    }
    return out;
  }
}

/** A strategy's resting orders in a market at one revision, and their coverage of the wanted orders last asked. */
interface RestingRead {
  revision: number;
  readonly tick: string;
  readonly resting: readonly RestingQuote[];
  covered?: {
    readonly wanted: KeptTarget['wanted'];
    readonly coverage: { readonly coverage: QuoteCoverage; readonly exact: QuoteCoverage };
  };
}

/** A resting order as the coverage reads it: its side, its price in ticks, whether a replacement moves it. */
interface RestingQuote {
  readonly side: TrackedOrder['side'];
  readonly ticks: bigint | undefined;
  readonly moving: boolean;
}

/** Whether two reads of resting orders are the same quotes in the same order (so cover alike). */
function sameQuotes(a: readonly RestingQuote[], b: readonly RestingQuote[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as RestingQuote;
    const y = b[i] as RestingQuote;
    if (x.side !== y.side || x.ticks !== y.ticks || x.moving !== y.moving) return false;
  }
  return true;
}

/**
 * A target's wanted orders against what rests: each held by a resting order of its side within
 * tolerance, or by one a replacement is moving to it (still on the book until its cancel lands:
 * the level is quoted, the figure counts the venue's gap, and the requote latency the move).
 */
function targetCoverage(target: KeptTarget, restingNow: readonly RestingQuote[], movingHolds: boolean): QuoteCoverage {
  if (target.wanted.length === 0) return 'idle';
  const resting = [...restingNow];
  let held = 0;
  for (const w of target.wanted) {
    const at = resting.findIndex(
      (r) =>
        r.side === w.side &&
        r.ticks !== undefined &&
        ((movingHolds && r.moving) || abs(r.ticks - w.ticks) <= w.toleranceTicks),
    );
    if (at < 0) continue;
    resting.splice(at, 1);
    held++;
  }
  return held === target.wanted.length ? 'full' : held === 0 ? 'none' : 'partial';
}

/** Without a target: every live limit order the strategy has not asked to cancel is wanted, held once it rests. */
function ownCoverage({ wanted, held }: WantedOrderCount): QuoteCoverage {
  if (wanted === 0) return 'idle';
  return held === wanted ? 'full' : held === 0 ? 'none' : 'partial';
}

function viewOf({ strategy, marketId, value: book }: StrategyMarketEntry<Book>, now: number): QuoteUptimeView {
  const ms = { ...book.ms, [book.coverage]: book.ms[book.coverage] + (now - book.sinceMs) };
  const wantedMs = ms.full + ms.partial + ms.none;
  const share = (part: number): number | null => (wantedMs === 0 ? null : part / wantedMs);
  const sorted = [...book.latencies].sort((a, b) => a - b);
  return {
    strategy,
    marketId,
    wantedMs,
    heldMs: ms.full,
    uptime: share(ms.full),
    missing: share(ms.partial + ms.none),
    none: share(ms.none),
    requotes: book.requotes,
    requoteLatencyMs: { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) },
    actionsPerRequote: book.requotes === 0 ? null : book.actions / book.requotes,
  };
}

/** The nearest-rank percentile of sorted values. */
function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? null;
}

function abs(n: bigint): bigint {
  return n < 0n ? -n : n;
}

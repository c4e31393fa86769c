/**
 * Grid: a ladder of `levels` prices evenly spaced from `lower` to `upper`. At the first mark it
 * places a buy at every level below the mark and a sell at every level above, except the level
 * nearest the mark, which stays empty. Each time a grid order fills completely, it places the
 * opposite order one level away: a filled buy at level i becomes a sell at level i+1, a filled
 * sell at level i a buy at level i-1. The replacement lands on the empty level and the filled
 * order's level becomes the new gap, so no level ever holds two orders. The grid so buys dips
 * and sells rallies inside the range, earning the level spacing on each round trip.
 *
 * Restart-safe: the ladder (which intent rests at which level) is saved in `ctx.storage` after
 * every change. On start the grid takes over its own resting orders (restored from the journal,
 * or adopted at reconciliation): an order saved in the ladder keeps its level, another one is
 * placed at the level its price matches, and an order off the grid or on a level already taken
 * is cancelled. At the first mark it places only the levels still missing.
 *
 * Params: lower, upper (decimal prices), levels (2..100), size (decimal per order).
 */
import { defer, filter, merge, mergeMap, from, take, EMPTY, type Observable } from 'rxjs';
import { z } from 'zod';
import {
  absDecimal,
  addDecimals,
  compareDecimals,
  countUnits,
  decimalToFixed,
  defineStrategy,
  fixedToDecimal,
  multiplyUnits,
  negateDecimal,
  type Intent,
  type OpenOrderSnapshot,
  type StrategyContext,
} from '../src/strategy/index.js';

const decimal = z.string().regex(/^\d+(\.\d+)?$/, 'expected a positive decimal string');

export const gridParams = z
  .object({ lower: decimal, upper: decimal, levels: z.number().int().min(2).max(100), size: decimal })
  .refine((p) => compareDecimals(p.lower, p.upper) < 0, { message: 'lower must be below upper', path: ['lower'] });
export type GridParams = z.infer<typeof gridParams>;

const SCALE = 18;

/** Evenly spaced levels, exact to 18 decimals (the intent's rounding snaps them to the tick). */
export function gridLevels(lower: string, upper: string, levels: number): string[] {
  const lo = decimalToFixed(lower, SCALE, 'lower');
  const hi = decimalToFixed(upper, SCALE, 'upper');
  const step = (hi - lo) / BigInt(levels - 1);
  return Array.from({ length: levels }, (_, i) => fixedToDecimal(i === levels - 1 ? hi : lo + step * BigInt(i), SCALE));
}

export interface GridOrder {
  readonly level: number;
  readonly side: 'buy' | 'sell';
  readonly price: string;
}

/**
 * The orders a ladder lacks at this mark: every level not in `occupied` gets a buy when below
 * the mark and a sell when above, except the free level nearest the mark (the lower one on a
 * tie), which stays the gap a filled order's replacement goes to. A full ladder (one gap or
 * none) lacks nothing.
 */
export function missingGridOrders(
  levels: readonly string[],
  mark: string,
  occupied: ReadonlySet<number> = new Set(),
): GridOrder[] {
  const free = levels.map((price, level) => ({ price, level })).filter((l) => !occupied.has(l.level));
  let gap: { price: string; level: number; distance: string } | undefined;
  for (const l of free) {
    const distance = absDecimal(addDecimals(l.price, negateDecimal(mark)));
    if (gap === undefined || compareDecimals(distance, gap.distance) < 0) gap = { ...l, distance };
  }
  const orders: GridOrder[] = [];
  for (const { price, level } of free) {
    if (level === gap?.level) continue;
    const c = compareDecimals(price, mark);
    if (c < 0) orders.push({ level, side: 'buy', price });
    else if (c > 0) orders.push({ level, side: 'sell', price });
  }
  return orders;
}

/** The ladder at the first mark of a fresh start: buys below, sells above, the nearest level empty. */
export function initialGridOrders(levels: readonly string[], mark: string): GridOrder[] {
  return missingGridOrders(levels, mark);
}

/** The order that replaces a completely filled one, or undefined at the edge of the grid. */
export function replacementOrder(levels: readonly string[], filled: GridOrder): GridOrder | undefined {
  const level = filled.side === 'buy' ? filled.level + 1 : filled.level - 1;
  const price = levels[level];
  if (price === undefined) return undefined;
  return { level, side: filled.side === 'buy' ? 'sell' : 'buy', price };
}

/** What the grid saves in storage per market: the params the ladder was built for and its resting orders. */
export const savedLadderSchema = z.object({
  lower: z.string(),
  upper: z.string(),
  levels: z.number().int(),
  orders: z.array(z.object({ intentId: z.string(), level: z.number().int().min(0), side: z.enum(['buy', 'sell']) })),
});
export type SavedLadder = z.infer<typeof savedLadderSchema>;

export interface KeptGridOrder {
  readonly intentId: string;
  readonly order: GridOrder;
  /** What is left to fill of it. */
  readonly remaining: string;
}

export interface LadderTakeover {
  readonly kept: readonly KeptGridOrder[];
  /** Own resting orders to cancel: off the grid, or on a level another order already holds. */
  readonly cancel: readonly ({ readonly intentId: string } | { readonly orderId: string })[];
}

/** A level's price as the engine rests it: buys rounded down to the tick, sells up (exact without a tick). */
export function restingPrice(price: string, side: 'buy' | 'sell', tick: string | undefined): string {
  if (tick === undefined) return price;
  return multiplyUnits(countUnits(price, tick, 'price', side === 'buy' ? 'down' : 'up'), tick, 'tick');
}

/**
 * Takes over the strategy's own resting orders of a market on start. An order the saved ladder
 * (for the same lower, upper and levels) lists keeps its level; any other order (from a run
 * without storage, or adopted at reconciliation) takes the level whose resting price equals its
 * price. An order that matches no level, or a level already kept, is cancelled: the ladder never
 * holds two orders at one level.
 */
export function takeOverLadder(
  levels: readonly string[],
  params: Pick<GridParams, 'lower' | 'upper' | 'levels'>,
  tick: string | undefined,
  saved: SavedLadder | undefined,
  own: readonly OpenOrderSnapshot[],
): LadderTakeover {
  const sameGrid =
    saved !== undefined &&
    saved.lower === params.lower &&
    saved.upper === params.upper &&
    saved.levels === params.levels;
  const savedLevel = new Map(sameGrid ? saved.orders.map((o) => [o.intentId, o] as const) : []);
  const kept: KeptGridOrder[] = [];
  const cancel: ({ intentId: string } | { orderId: string })[] = [];
  const taken = new Set<number>();
  const levelOf = (o: OpenOrderSnapshot): number | undefined => {
    const s = o.intentId === undefined ? undefined : savedLevel.get(o.intentId);
    if (s !== undefined && s.side === o.side && levels[s.level] !== undefined) return s.level;
    const i = levels.findIndex((price) => compareDecimals(restingPrice(price, o.side, tick), o.price) === 0);
    return i < 0 ? undefined : i;
  };
  // Saved orders first, so an unsaved order at the same price is the one cancelled.
  const ordered = [...own].sort(
    (a, b) => Number(!savedLevel.has(a.intentId ?? '')) - Number(!savedLevel.has(b.intentId ?? '')),
  );
  for (const o of ordered) {
    const level = levelOf(o);
    const price = level === undefined ? undefined : levels[level];
    if (level === undefined || price === undefined || taken.has(level) || o.intentId === undefined) {
      cancel.push(o.intentId === undefined ? { orderId: o.orderId } : { intentId: o.intentId });
      continue;
    }
    taken.add(level);
    kept.push({
      intentId: o.intentId,
      order: { level, side: o.side, price },
      remaining: addDecimals(o.size, negateDecimal(o.filledSize)),
    });
  }
  return { kept, cancel };
}

/** Tracks fills per grid order until it is complete. */
export class GridTracker {
  private readonly open = new Map<string, { order: GridOrder; remaining: bigint }>();

  constructor(private readonly size: string) {}

  /** A new order (its whole size left), or one taken over with `remaining` left to fill. */
  track(intentId: string, order: GridOrder, remaining: string = this.size): void {
    this.open.set(intentId, { order, remaining: decimalToFixed(remaining, SCALE, 'size') });
  }

  /** Whether it was tracked. */
  forget(intentId: string): boolean {
    return this.open.delete(intentId);
  }

  /** Records a fill; returns the grid order when it is now completely filled. */
  onFill(intentId: string, size: string): GridOrder | undefined {
    const entry = this.open.get(intentId);
    if (entry === undefined) return undefined;
    entry.remaining -= decimalToFixed(size, SCALE, 'fill size');
    if (entry.remaining > 0n) return undefined;
    this.open.delete(intentId);
    return entry.order;
  }

  /** Levels that hold an order. */
  occupiedLevels(): Set<number> {
    return new Set([...this.open.values()].map((e) => e.order.level));
  }

  /** The resting orders, as saved in storage. */
  entries(): SavedLadder['orders'] {
    return [...this.open].map(([intentId, e]) => ({ intentId, level: e.order.level, side: e.order.side }));
  }

  get openCount(): number {
    return this.open.size;
  }
}

function runGrid(ctx: StrategyContext<GridParams>, marketId: number): Observable<Intent> {
  return defer(() => {
    const p = ctx.params;
    const key = `ladder-${marketId}`;
    const levels = gridLevels(p.lower, p.upper, p.levels);
    const tracker = new GridTracker(p.size);
    const persist = () =>
      ctx.storage?.save(key, {
        lower: p.lower,
        upper: p.upper,
        levels: p.levels,
        orders: tracker.entries(),
      } satisfies SavedLadder);

    const own = ctx.state.openOrders(marketId).filter((o) => o.strategy === ctx.name);
    const takeover = takeOverLadder(
      levels,
      p,
      ctx.state.market(marketId)?.config.step_price,
      ctx.storage?.load(key, savedLadderSchema),
      own,
    );
    for (const k of takeover.kept) tracker.track(k.intentId, k.order, k.remaining);
    if (own.length > 0)
      ctx.log.info(
        { marketId, kept: takeover.kept.length, cancelled: takeover.cancel.length },
        'resting grid orders taken over',
      );
    persist();
    const cancels = from(takeover.cancel.map((target) => ctx.intents.cancel({ marketId, target })));

    // The ladder is saved before its intents leave, so a crash in between re-places, never doubles.
    const place = (orders: readonly GridOrder[]): Observable<Intent> => {
      const intents = orders.map((order) => {
        const intent = ctx.intents.placeLimit({
          marketId,
          side: order.side,
          size: p.size,
          price: order.price,
          priceRounding: order.side === 'buy' ? 'down' : 'up',
        });
        tracker.track(intent.intentId, order);
        return intent;
      });
      if (intents.length > 0) persist();
      return from(intents);
    };
    const seed = ctx.streams.mark(marketId).pipe(
      take(1),
      mergeMap((m) => {
        const orders = missingGridOrders(levels, m.markPrice, tracker.occupiedLevels());
        ctx.log.info({ marketId, mark: m.markPrice, orders: orders.length, kept: tracker.openCount }, 'grid placed');
        return place(orders);
      }),
    );
    const refill = ctx.streams.fills().pipe(
      filter((f) => f.marketId === marketId && f.intentId !== undefined),
      mergeMap((f) => {
        const done = tracker.onFill(f.intentId!, f.size);
        if (done === undefined) return EMPTY;
        persist();
        const next = replacementOrder(levels, done);
        if (next === undefined) return EMPTY;
        if (tracker.occupiedLevels().has(next.level)) {
          ctx.log.warn({ marketId, level: next.level }, 'replacement level already holds an order: not placed');
          return EMPTY;
        }
        return place([next]);
      }),
    );
    const dead = ctx.outcomes.pipe(
      filter((o) => o.type === 'refused' || o.type === 'failed'),
      mergeMap((o) => {
        if (tracker.forget(o.intentId)) persist();
        return EMPTY;
      }),
    );
    return merge(cancels, seed, refill, dead);
  });
}

export default defineStrategy({
  name: 'grid',
  description:
    'A ladder of limit orders between two prices; each filled order is replaced by the opposite one a level away.',
  params: gridParams,
  // The ladder is seeded and refilled around the mark; a late mark only pauses new levels.
  freshness: { mark: 5000 },
  run: (ctx) => merge(...ctx.markets.map((m) => runGrid(ctx, m))),
});

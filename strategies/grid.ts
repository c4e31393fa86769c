/**
 * Grid: a ladder of `levels` prices evenly spaced from `lower` to `upper`. At the first mark it
 * places a buy at every level below the mark and a sell at every level above. Each time a grid
 * order fills completely, it places the opposite order one level away: a filled buy at level i
 * becomes a sell at level i+1, a filled sell at level i a buy at level i-1. The grid so buys dips
 * and sells rallies inside the range, earning the level spacing on each round trip.
 *
 * Params: lower, upper (decimal prices), levels (2..100), size (decimal per order).
 */
import { filter, merge, mergeMap, from, take, EMPTY, type Observable } from 'rxjs';
import { z } from 'zod';
import { compareDecimals, defineStrategy, type Intent, type StrategyContext } from '../src/strategy/index.js';
import { decimalToFixed, fixedToDecimal } from '../src/core/decimal.js';

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

/** Buys below the mark, sells above; a level equal to the mark gets nothing. */
export function initialGridOrders(levels: readonly string[], mark: string): GridOrder[] {
  const orders: GridOrder[] = [];
  levels.forEach((price, level) => {
    const c = compareDecimals(price, mark);
    if (c < 0) orders.push({ level, side: 'buy', price });
    else if (c > 0) orders.push({ level, side: 'sell', price });
  });
  return orders;
}

/** The order that replaces a completely filled one, or undefined at the edge of the grid. */
export function replacementOrder(levels: readonly string[], filled: GridOrder): GridOrder | undefined {
  const level = filled.side === 'buy' ? filled.level + 1 : filled.level - 1;
  const price = levels[level];
  if (price === undefined) return undefined;
  return { level, side: filled.side === 'buy' ? 'sell' : 'buy', price };
}

/** Tracks fills per grid order until it is complete. */
export class GridTracker {
  private readonly open = new Map<string, { order: GridOrder; remaining: bigint }>();

  constructor(private readonly size: string) {}

  track(intentId: string, order: GridOrder): void {
    this.open.set(intentId, { order, remaining: decimalToFixed(this.size, SCALE, 'size') });
  }

  forget(intentId: string): void {
    this.open.delete(intentId);
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

  get openCount(): number {
    return this.open.size;
  }
}

function runGrid(ctx: StrategyContext<GridParams>, marketId: number): Observable<Intent> {
  const p = ctx.params;
  const levels = gridLevels(p.lower, p.upper, p.levels);
  const tracker = new GridTracker(p.size);
  const place = (order: GridOrder): Intent => {
    const intent = ctx.intents.placeLimit({
      marketId,
      side: order.side,
      size: p.size,
      price: order.price,
      priceRounding: order.side === 'buy' ? 'down' : 'up',
    });
    tracker.track(intent.intentId, order);
    return intent;
  };
  const seed = ctx.streams.mark(marketId).pipe(
    take(1),
    mergeMap((m) => {
      const orders = initialGridOrders(levels, m.markPrice);
      ctx.log.info({ marketId, mark: m.markPrice, orders: orders.length }, 'grid placed');
      return from(orders.map(place));
    }),
  );
  const refill = ctx.streams.fills().pipe(
    filter((f) => f.marketId === marketId && f.intentId !== undefined),
    mergeMap((f) => {
      const done = tracker.onFill(f.intentId!, f.size);
      const next = done === undefined ? undefined : replacementOrder(levels, done);
      return next === undefined ? EMPTY : from([place(next)]);
    }),
  );
  const dead = ctx.outcomes.pipe(
    filter((o) => o.type === 'refused' || o.type === 'failed'),
    mergeMap((o) => {
      tracker.forget(o.intentId);
      return EMPTY;
    }),
  );
  return merge(seed, refill, dead);
}

export default defineStrategy({
  name: 'grid',
  description: 'A ladder of limit orders between two prices; each filled order is replaced by the opposite one a level away.',
  params: gridParams,
  run: (ctx) => merge(...ctx.markets.map((m) => runGrid(ctx, m))),
});

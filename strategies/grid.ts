/**
 * Grid: a ladder of `levels` prices evenly spaced from `lower` to `upper`, one level of it empty
 * (the gap): a buy at every level below the gap and a sell at every level above it. At the first
 * mark the gap is the level nearest the mark. Each time a grid order fills completely, the gap
 * moves to its level: a filled buy at level i leaves buys below i and sells above it, so the level
 * above (the old gap) gets a sell; a filled sell at level i a buy at the level below. The grid so
 * buys dips and sells rallies inside the range, earning the level spacing on each round trip.
 *
 * It states the whole ladder as a quote target (`ctx.intents.quote`) at the first mark and after
 * every complete fill; the engine keeps every order already at its level (a partly filled one too)
 * and sends only what changed: a level's new order, an order that must change sides.
 *
 * Restart-safe: the gap is saved in `ctx.storage` with the ladder's params. On start its resting
 * orders restored from the journal are the engine's again, and the first target keeps those at
 * their levels; without a saved gap (or for other params) the gap is the level nearest the mark.
 *
 * Params: lower, upper (decimal prices), levels (2..100), size (decimal per order).
 */
import { defer, filter, map, merge, mergeMap, take, EMPTY, type Observable } from 'rxjs';
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

/** What the grid saves in storage per market: the params the ladder was built for and its gap. */
export const savedGridSchema = z.object({
  lower: z.string(),
  upper: z.string(),
  levels: z.number().int(),
  gap: z.number().int().min(0),
});
export type SavedGrid = z.infer<typeof savedGridSchema>;

/** A level's price as the engine rests it: buys rounded down to the tick, sells up (exact without a tick). */
export function restingPrice(price: string, side: 'buy' | 'sell', tick: string | undefined): string {
  if (tick === undefined) return price;
  return multiplyUnits(countUnits(price, tick, 'price', side === 'buy' ? 'down' : 'up'), tick, 'tick');
}

/** The level nearest the mark (the lower one on a tie): the first gap. */
export function nearestLevel(levels: readonly string[], mark: string): number {
  let nearest = 0;
  let best: string | undefined;
  for (const [level, price] of levels.entries()) {
    const distance = absDecimal(addDecimals(price, negateDecimal(mark)));
    if (best === undefined || compareDecimals(distance, best) < 0) {
      best = distance;
      nearest = level;
    }
  }
  return nearest;
}

/** The ladder with the gap at `gap`: a buy at every level below it, a sell at every level above. */
export function ladderAround(levels: readonly string[], gap: number): GridOrder[] {
  return levels.flatMap((price, level): GridOrder[] =>
    level < gap ? [{ level, side: 'buy', price }] : level > gap ? [{ level, side: 'sell', price }] : [],
  );
}

/** The level a filled order of this grid stood at (its side and resting price), if it is one of the ladder's. */
export function levelOfOrder(
  levels: readonly string[],
  order: { readonly side: 'buy' | 'sell'; readonly price: string },
  tick: string | undefined,
): number | undefined {
  const level = levels.findIndex((price) => compareDecimals(restingPrice(price, order.side, tick), order.price) === 0);
  return level < 0 ? undefined : level;
}

/** The saved gap, when it was saved for this ladder's params. */
function savedGap(saved: SavedGrid | undefined, p: GridParams): number | undefined {
  if (saved === undefined || saved.lower !== p.lower || saved.upper !== p.upper || saved.levels !== p.levels)
    return undefined;
  return saved.gap < p.levels ? saved.gap : undefined;
}

function runGrid(ctx: StrategyContext<GridParams>, marketId: number): Observable<Intent> {
  return defer(() => {
    const p = ctx.params;
    const key = `grid-${marketId}`;
    const levels = gridLevels(p.lower, p.upper, p.levels);
    let gap = savedGap(ctx.storage?.load(key, savedGridSchema), p);
    const own = ctx.state.openOrders(marketId).filter((o) => o.strategy === ctx.name);
    if (own.length > 0) ctx.log.info({ marketId, orders: own.length, gap }, 'resting grid orders taken over');

    // The gap is saved before the target leaves, so a crash in between states the same ladder again.
    const ladder = (at: number): Intent => {
      gap = at;
      ctx.storage?.save(key, { lower: p.lower, upper: p.upper, levels: p.levels, gap: at } satisfies SavedGrid);
      const orders = ladderAround(levels, at).map((o) => ({
        side: o.side,
        size: p.size,
        price: o.price,
        priceRounding: o.side === 'buy' ? ('down' as const) : ('up' as const),
      }));
      // Exactly at their levels; a partly filled order stays until it fills.
      return ctx.intents.quote({ marketId, orders, tolerance: { ticks: 0, partial: true } });
    };
    const seed = ctx.streams.mark(marketId).pipe(
      take(1),
      map((m) => {
        const at = gap ?? nearestLevel(levels, m.markPrice);
        ctx.log.info({ marketId, mark: m.markPrice, gap: at, orders: levels.length - 1 }, 'grid placed');
        return ladder(at);
      }),
    );
    const refill = ctx.orderEvents.pipe(
      filter((e) => e.type === 'filled' && e.marketId === marketId && e.price !== undefined),
      mergeMap((e) => {
        const level = levelOfOrder(
          levels,
          { side: e.side, price: e.price! },
          ctx.state.market(marketId)?.config.step_price,
        );
        if (level === undefined || level === gap) return EMPTY;
        return [ladder(level)];
      }),
    );
    return merge(seed, refill);
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

/**
 * TWAP / iceberg executor: buys (or sells) `size` over `duration_ms` in `slices` equal steps.
 *
 * - At slice k (k = 0 .. slices−1, every duration/slices ms from the start) the target is
 *   size × (k+1)/slices, rounded down to the step. The resting child order is cancelled (and its
 *   end awaited, so its fills count), then a post-only limit order for what is missing is placed
 *   at the touch: the best bid for a buy, the best ask for a sell, never worse than `limit_price`.
 * - Iceberg: with `max_visible`, a child shows at most that much; when it fills completely before
 *   the next slice, the next piece of the slice goes up at once.
 * - At the end it cancels the child and, with `finish_with_market` (the default), sends a market
 *   order for the remainder, if the touch is within `limit_price`. Then it declares itself done.
 * - On stop it cancels its resting child (its final intent).
 * - Restart-safe: the start time, what has filled and the resting child are saved in
 *   `ctx.storage` after every change. On start it resumes the same schedule (slices whose time
 *   passed while it was down are caught up by the next one); a saved child still resting is
 *   cancelled and its fills counted; a child gone while down is counted as filled, so the total
 *   is never exceeded.
 *
 * Params: side, size, limit_price, duration_ms (default 1 hour), slices (default 60), max_visible,
 * finish_with_market (default true), max_slippage_bps (default 50). One market.
 */
import {
  concat,
  concatMap,
  defer,
  EMPTY,
  filter,
  from,
  ignoreElements,
  merge,
  mergeMap,
  of,
  take,
  tap,
  type Observable,
} from 'rxjs';
import { z } from 'zod';
import {
  addDecimals,
  compareDecimals,
  defineStrategy,
  divideDecimals,
  forIntent,
  isFillEvent,
  isTerminalOrderEvent,
  minDecimal,
  multiplyDecimals,
  roundToStep,
  roundToTick,
  subtractDecimals,
  type Intent,
  type MarketView,
  type Side,
  type StrategyContext,
  type TopOfBook,
} from '../src/strategy/index.js';

const decimal = z.string().regex(/^\d+(\.\d+)?$/, 'expected a positive decimal string such as "0.5"');

export const twapParams = z.object({
  side: z.enum(['buy', 'sell']),
  size: decimal,
  limit_price: decimal,
  duration_ms: z
    .number()
    .int()
    .min(1_000)
    .max(7 * 86_400_000)
    .default(3_600_000),
  slices: z.number().int().min(1).max(10_000).default(60),
  max_visible: decimal.optional(),
  finish_with_market: z.boolean().default(true),
  max_slippage_bps: z.number().positive().max(5_000).default(50),
});
export type TwapParams = z.infer<typeof twapParams>;

/** What the TWAP saves: the schedule it runs (params and start), what filled, the resting child. */
export const savedTwapSchema = z.object({
  plan: z.string(),
  startMs: z.number(),
  filled: z.string(),
  child: z.object({ intentId: z.string(), size: z.string(), filled: z.string() }).optional(),
  finished: z.boolean().default(false),
});
export type SavedTwap = z.infer<typeof savedTwapSchema>;

/** The params that define a schedule: a restart with other ones starts afresh. */
export function planKey(p: TwapParams): string {
  return JSON.stringify([p.side, p.size, p.limit_price, p.duration_ms, p.slices]);
}

/** Cumulative target after slice k (0-based): size × (k+1)/slices, rounded down to the step. */
export function sliceTarget(p: TwapParams, k: number, step: string): string {
  if (k + 1 >= p.slices) return roundToStep(p.size, step, 'down');
  return roundToStep(
    divideDecimals(multiplyDecimals(p.size, String(k + 1)), String(p.slices), 18, 'down'),
    step,
    'down',
  );
}

/** The index of the next slice due at `nowMs` (slices whose time passed are folded into it); `slices` is the end. */
export function nextSlice(p: TwapParams, startMs: number, nowMs: number): number {
  if (nowMs <= startMs) return 0;
  const interval = p.duration_ms / p.slices;
  return Math.min(p.slices, Math.ceil((nowMs - startMs) / interval - 1e-9));
}

/** The passive child's price: at the touch on our side, never worse than the limit; on the tick. */
export function childPrice(side: Side, top: TopOfBook | undefined, limit: string, tick: string): string {
  const touch = side === 'buy' ? top?.bestBid?.price : top?.bestAsk?.price;
  const price =
    touch === undefined
      ? limit
      : side === 'buy'
        ? minDecimal(touch, limit)
        : compareDecimals(touch, limit) >= 0
          ? touch
          : limit;
  return roundToTick(price, tick, side === 'buy' ? 'down' : 'up');
}

/** Whether the final market order may go: the opposite touch is within the limit. */
export function marketWithinLimit(side: Side, top: TopOfBook | undefined, limit: string): boolean {
  const opposite = side === 'buy' ? top?.bestAsk?.price : top?.bestBid?.price;
  if (opposite === undefined) return false;
  return side === 'buy' ? compareDecimals(opposite, limit) <= 0 : compareDecimals(opposite, limit) >= 0;
}

function runTwap(ctx: StrategyContext<TwapParams>): Observable<Intent> {
  const p = ctx.params;
  if (ctx.markets.length !== 1)
    throw new Error(`the TWAP executes in one market; its config lists ${ctx.markets.length}`);
  const marketId = ctx.markets[0]!;
  const key = `twap-${marketId}`;
  return defer(() => {
    const market: MarketView | undefined = ctx.state.market(marketId);
    if (market === undefined) throw new Error(`market ${marketId} is not listed by the venue`);
    const { step_size: step, step_price: tick, min_order_size: minSize } = market.config;
    const saved = ctx.storage?.load(key, savedTwapSchema);
    const resumed = saved !== undefined && saved.plan === planKey(p) ? saved : undefined;
    const state: SavedTwap = resumed ?? { plan: planKey(p), startMs: ctx.clock.now(), filled: '0', finished: false };
    const save = () => ctx.storage?.save(key, state);
    let top: TopOfBook | undefined;
    let slice = -1;

    // A saved child still resting is cancelled and its fills counted; one gone while down counts as filled.
    const takeover: Intent[] = [];
    if (state.child !== undefined) {
      const resting = ctx.state.openOrders(marketId).find((o) => o.intentId === state.child?.intentId);
      if (resting === undefined) {
        ctx.log.warn(
          { intentId: state.child.intentId },
          'the saved child order ended while the bot was down: counted as filled',
        );
        state.filled = addDecimals(state.filled, subtractDecimals(state.child.size, state.child.filled));
        delete state.child;
      } else {
        state.filled = addDecimals(state.filled, subtractDecimals(resting.filledSize, state.child.filled));
        state.child = { ...state.child, filled: resting.filledSize };
        takeover.push(ctx.intents.cancel({ marketId, target: { intentId: resting.intentId! } }));
      }
    }
    const remaining = () => subtractDecimals(roundToStep(p.size, step, 'down'), state.filled);
    if (state.finished || compareDecimals(remaining(), minSize) < 0) {
      state.finished = true;
      save();
      ctx.log.info({ filled: state.filled }, 'twap already complete');
      ctx.done('already complete');
      return EMPTY;
    }
    save();
    if (resumed !== undefined) ctx.log.info({ startMs: state.startMs, filled: state.filled }, 'twap resumed');

    const place = (target: string): Observable<Intent> => {
      let want = roundToStep(subtractDecimals(target, state.filled), step, 'down');
      if (p.max_visible !== undefined) want = minDecimal(want, roundToStep(p.max_visible, step, 'down'));
      if (compareDecimals(want, minSize) < 0) return EMPTY;
      const child = ctx.intents.placeLimit({
        marketId,
        side: p.side,
        size: want,
        price: childPrice(p.side, top, p.limit_price, tick),
        postOnly: true,
      });
      state.child = { intentId: child.intentId, size: want, filled: '0' };
      // Saved before it leaves: a restart knows the child even if the answer is lost.
      save();
      children.add(child.intentId);
      return of(child);
    };
    const children = new Set<string>(state.child === undefined ? [] : [state.child.intentId]);

    /** Cancels the resting child and waits for its end (its fills counted), or nothing when none rests. */
    const retireChild = (): Observable<Intent> => {
      const child = state.child;
      if (child === undefined) return EMPTY;
      return concat(
        of(ctx.intents.cancel({ marketId, target: { intentId: child.intentId } })),
        ctx.orderEvents.pipe(
          filter(forIntent(child.intentId)),
          filter(isTerminalOrderEvent),
          take(1),
          ignoreElements(),
        ),
      );
    };

    const finish = (): Observable<Intent> =>
      defer(() => {
        state.finished = true;
        save();
        const left = roundToStep(remaining(), step, 'down');
        if (!p.finish_with_market || compareDecimals(left, minSize) < 0) {
          ctx.done('schedule complete');
          return EMPTY;
        }
        if (!marketWithinLimit(p.side, top, p.limit_price)) {
          ctx.log.warn(
            { left, limit: p.limit_price, top },
            'twap ends with a remainder: the market is beyond the limit price',
          );
          ctx.done('schedule complete, remainder beyond the limit');
          return EMPTY;
        }
        const order = ctx.intents.placeMarket({
          marketId,
          side: p.side,
          size: left,
          maxSlippageBps: p.max_slippage_bps,
        });
        children.add(order.intentId);
        return concat(
          of(order),
          ctx.orderEvents.pipe(
            filter(forIntent(order.intentId)),
            filter(isTerminalOrderEvent),
            take(1),
            tap((e) => {
              ctx.log.info({ filled: state.filled, end: e.type }, 'twap done');
              ctx.done('schedule complete');
            }),
            ignoreElements(),
          ),
        );
      });

    const interval = p.duration_ms / p.slices;
    const first = nextSlice(p, state.startMs, ctx.clock.now());
    const firstAt = state.startMs + first * interval;
    const ticks = ctx.clock.timer(Math.max(0, firstAt - ctx.clock.now()), interval).pipe(
      take(p.slices - first + 1),
      concatMap((i) => {
        slice = first + i;
        const target = slice >= p.slices ? undefined : sliceTarget(p, slice, step);
        ctx.log.debug({ slice, target, filled: state.filled }, 'twap slice');
        return concat(retireChild(), target === undefined ? finish() : defer(() => place(target)));
      }),
    );

    // Fills of our own children count; a child that ended is forgotten; a filled iceberg piece is refilled.
    const progress = ctx.orderEvents.pipe(
      mergeMap((e) => {
        if (!children.has(e.intentId)) return EMPTY;
        if (isFillEvent(e)) {
          state.filled = addDecimals(state.filled, e.lastFillSize);
          if (state.child?.intentId === e.intentId) state.child = { ...state.child, filled: e.filledSize };
        }
        if (isTerminalOrderEvent(e)) {
          children.delete(e.intentId);
          if (state.child?.intentId === e.intentId) delete state.child;
        }
        save();
        const refill =
          e.type === 'filled' && p.max_visible !== undefined && !state.finished && slice >= 0 && slice < p.slices;
        return refill ? place(sliceTarget(p, slice, step)) : EMPTY;
      }),
    );
    const touch = ctx.streams.topOfBook(marketId).pipe(
      tap((t) => (top = t)),
      ignoreElements(),
    );
    return merge(touch, progress, from(takeover), ticks);
  });
}

export default defineStrategy({
  name: 'twap',
  description:
    'Executes a size over a duration in equal slices: post-only at the touch within a limit price, a market order for the remainder at the end.',
  params: twapParams,
  run: runTwap,
  // Nothing of ours may rest after a stop: the child goes with us.
  onStop: (ctx) =>
    ctx.state
      .openOrders(ctx.markets[0])
      .filter((o) => o.strategy === ctx.name && o.intentId !== undefined)
      .map((o) => ctx.intents.cancel({ marketId: o.marketId, target: { intentId: o.intentId! } })),
});

/**
 * Market maker: keeps one bid and one ask around the mark price of each of its markets.
 *
 * - The quotes sit `spread_bps` apart, centred on the mark shifted against inventory: at
 *   `max_inventory` long the centre moves down by `skew_bps` (cheaper asks sell the inventory
 *   off, lower bids buy less), and symmetrically when short. The side that would grow the
 *   inventory beyond `max_inventory` stops quoting.
 * - It states its quotes as a quote target (`ctx.intents.quote`) at every mark and after every
 *   fill of its own orders; the engine keeps a quote while it is within `requote_bps` of where it
 *   is wanted and moves it otherwise (`replace`: break-before-make by default, so never two quotes
 *   a side rest at once), placing a side that filled again. Quotes the engine still holds (queued,
 *   in flight) count as its quotes.
 * - Quotes are post-only by default, bids rounded down and asks rounded up to the tick, so a
 *   quote never crosses the mark by rounding. A post-only quote that would still cross the book
 *   (skewed past the touch, or priced off a mark the book has already left) is moved one tick
 *   behind the opposite best price, so it rests instead of being refused as PostOnlyWouldCross.
 * - Restart-safe: its resting orders restored from the journal are the engine's again, and the
 *   first target keeps those still within `requote_bps` and moves or cancels the others. A
 *   restart never leaves more than one bid and one ask.
 * - While trading is degraded or halted it states nothing (opening would be refused); the first
 *   mark after trading resumes quotes again.
 *
 * Params: size (decimal, per quote), spread_bps, requote_bps, max_inventory (decimal), skew_bps,
 * post_only, replace (break_before_make or make_before_break).
 */
import { defer, EMPTY, filter, ignoreElements, merge, mergeMap, of, tap, type Observable } from 'rxjs';
import { z } from 'zod';
import {
  absDecimal,
  addDecimals,
  changeBps,
  compareDecimals,
  defineStrategy,
  fixedToDecimal,
  negateDecimal,
  offsetByBps,
  parseDecimal,
  pow10,
  type Intent,
  type PositionSnapshot,
  type QuoteOrder,
  type StrategyContext,
} from '../src/strategy/index.js';

const decimal = z.string().regex(/^\d+(\.\d+)?$/, 'expected a positive decimal string such as "0.001"');

export const marketMakerParams = z.object({
  size: decimal,
  spread_bps: z.number().positive().max(5000),
  requote_bps: z.number().positive().default(5),
  max_inventory: decimal,
  skew_bps: z.number().min(0).max(5000).default(10),
  post_only: z.boolean().default(true),
  // Break before make: never two quotes a side on the venue, so an old and a new bid cannot both
  // fill and double the step into inventory; make_before_break keeps the level filled throughout.
  replace: z.enum(['break_before_make', 'make_before_break']).default('break_before_make'),
});
export type MarketMakerParams = z.infer<typeof marketMakerParams>;

export interface Quotes {
  readonly center: string;
  readonly bid?: string;
  readonly ask?: string;
}

/** Signed inventory: positive long, negative short, "0" flat. */
export function signedInventory(position: PositionSnapshot | undefined): string {
  if (position === undefined || compareDecimals(position.size, '0') === 0) return '0';
  return position.side === 'sell' ? `-${position.size}` : position.size;
}

/** The skew in bps (4 decimals, truncated toward zero) for an inventory. */
export function skewBps(inventory: string, params: Pick<MarketMakerParams, 'max_inventory' | 'skew_bps'>): string {
  const inv = parseDecimal(inventory, 'inventory');
  const max = parseDecimal(params.max_inventory, 'max_inventory');
  const scale = Math.max(inv.scale, max.scale);
  let i = inv.units * pow10(scale - inv.scale);
  const m = max.units * pow10(scale - max.scale);
  if (m === 0n) return '0';
  if (i > m) i = m;
  if (i < -m) i = -m;
  const skew = parseDecimal(String(params.skew_bps), 'skew_bps');
  // -(skew × i / m) with four decimals
  const value = (-skew.units * i * 10_000n) / (m * pow10(skew.scale));
  return fixedToDecimal(value, 4);
}

export function computeQuotes(mark: string, inventory: string, params: MarketMakerParams): Quotes {
  const center = offsetByBps(mark, skewBps(inventory, params));
  const half = params.spread_bps / 2;
  const atLongLimit = compareDecimals(inventory, params.max_inventory) >= 0;
  const atShortLimit = compareDecimals(inventory, `-${params.max_inventory}`) <= 0;
  return {
    center,
    ...(atLongLimit ? {} : { bid: offsetByBps(center, -half) }),
    ...(atShortLimit ? {} : { ask: offsetByBps(center, half) }),
  };
}

/** The best prices of a market's book as last seen; absent when that side is empty. */
export interface Touch {
  readonly bestBid?: string | undefined;
  readonly bestAsk?: string | undefined;
}

/**
 * Post-only quotes kept off the opposite touch: a bid at or above the best ask goes one tick
 * below it (or is dropped when that is not a positive price), an ask at or below the best bid goes
 * one tick above it. Quotes already behind the touch are unchanged.
 */
export function keepOffTheTouch(quotes: Quotes, touch: Touch, tick: string): Quotes {
  let { bid, ask } = quotes;
  if (bid !== undefined && touch.bestAsk !== undefined && compareDecimals(bid, touch.bestAsk) >= 0) {
    const below = addDecimals(touch.bestAsk, negateDecimal(tick));
    bid = compareDecimals(below, '0') > 0 ? below : undefined;
  }
  if (ask !== undefined && touch.bestBid !== undefined && compareDecimals(ask, touch.bestBid) <= 0)
    ask = addDecimals(touch.bestBid, tick);
  return { center: quotes.center, ...(bid === undefined ? {} : { bid }), ...(ask === undefined ? {} : { ask }) };
}

/** Whether the centre moved enough from the last quoted one to requote. */
export function shouldRequote(lastCenter: string | undefined, center: string, requoteBps: number): boolean {
  if (lastCenter === undefined) return true;
  return compareDecimals(absDecimal(changeBps(lastCenter, center)), String(requoteBps)) >= 0;
}

/** Its quotes as the orders of a quote target: the bid rounded down to the tick, the ask up. */
export function quoteOrders(quotes: Quotes, params: Pick<MarketMakerParams, 'size' | 'post_only'>): QuoteOrder[] {
  const orders: QuoteOrder[] = [];
  const common = { size: params.size, postOnly: params.post_only };
  if (quotes.bid !== undefined) orders.push({ side: 'buy', price: quotes.bid, priceRounding: 'down', ...common });
  if (quotes.ask !== undefined) orders.push({ side: 'sell', price: quotes.ask, priceRounding: 'up', ...common });
  return orders;
}

function quoteMarket(ctx: StrategyContext<MarketMakerParams>, marketId: number): Observable<Intent> {
  const p = ctx.params;
  let lastMark: string | undefined;
  let touch: Touch = {};

  // The whole target on every mark and own fill: the engine keeps the quotes still within
  // requote_bps and sends only what changed, so asking often costs nothing on the venue.
  const target = (): Observable<Intent> => {
    // Degraded or halted, opening is refused anyway: the next mark after trading resumes quotes again.
    if (lastMark === undefined || ctx.tradingState().mode !== 'trading') return EMPTY;
    const wanted = computeQuotes(lastMark, signedInventory(ctx.state.position(marketId)), p);
    const tick = ctx.state.marketConfig(marketId)?.step_price;
    const quotes = p.post_only && tick !== undefined ? keepOffTheTouch(wanted, touch, tick) : wanted;
    ctx.log.debug({ marketId, mark: lastMark, ...quotes }, 'quote target');
    return of(
      ctx.intents.quote({
        marketId,
        orders: quoteOrders(quotes, p),
        tolerance: { bps: p.requote_bps },
        mode: p.replace,
      }),
    );
  };

  const onMark = ctx.streams.mark(marketId).pipe(
    mergeMap((m) => {
      lastMark = m.markPrice;
      return target();
    }),
  );
  const onOwnFill = ctx.streams.fills().pipe(
    filter((f) => f.marketId === marketId && f.strategy === ctx.name),
    mergeMap(() => target()),
  );
  const onBook = ctx.streams.book(marketId).pipe(
    tap((book) => (touch = { bestBid: book.bids[0]?.price, bestAsk: book.asks[0]?.price })),
    ignoreElements(),
  );
  // At subscription: the engine's tracker holds the orders restored from the journal by then, and
  // the first target keeps those still within requote_bps (the rest it moves or cancels).
  const takeOver = defer(() => {
    const own = ctx.state.openOrders(marketId).filter((o) => o.strategy === ctx.name);
    if (own.length > 0) ctx.log.info({ marketId, orders: own.length }, 'resting quotes taken over by the first target');
    return EMPTY;
  });
  return merge(takeOver, onBook, onMark, onOwnFill);
}

export default defineStrategy({
  name: 'market-maker',
  description: 'Quotes both sides around the mark with inventory skew; requotes on moves and fills.',
  params: marketMakerParams,
  // Quotes are priced off the mark and kept a tick behind the book's best prices: with either
  // stream late it would quote blind, so it only reduces until both are fresh again.
  freshness: { mark: 2000, book: 5000 },
  run: (ctx) => merge(...ctx.markets.map((m) => quoteMarket(ctx, m))),
});

/**
 * A requoting strategy written against the public strategy API as it stood before quote targets
 * (issue 33): the market maker as it was bundled then, cancel and place on every requote. Kept
 * unchanged as the proof that an existing user's strategy keeps working and replays true.
 *
 * Market maker: keeps one bid and one ask around the mark price of each of its markets.
 *
 * - The quotes sit `spread_bps` apart, centred on the mark shifted against inventory: at
 *   `max_inventory` long the centre moves down by `skew_bps` (cheaper asks sell the inventory
 *   off, lower bids buy less), and symmetrically when short. The side that would grow the
 *   inventory beyond `max_inventory` stops quoting.
 * - It requotes (cancel both, place both) when the mark moves more than `requote_bps` from the
 *   centre it last quoted around, and after every fill of its own orders. Quotes the engine still
 *   holds (queued on the rate limit, or in flight) are cancelled like resting ones.
 * - Quotes are post-only by default, bids rounded down and asks rounded up to the tick, so a
 *   quote never crosses the mark by rounding. A post-only quote that would still cross the book
 *   (skewed past the touch, or priced off a mark the book has already left) is moved one tick
 *   behind the opposite best price, so it rests instead of being refused as PostOnlyWouldCross.
 * - Restart-safe: the centre and the intent ids of its quotes are saved in `ctx.storage` at every
 *   requote. On start it takes over its own resting orders (restored from the journal, or adopted
 *   at reconciliation): when every saved quote still rests, they are its live quotes again and
 *   nothing is requoted until the mark moves; otherwise all of them are cancelled and the first
 *   mark quotes afresh. A restart never leaves more than one bid and one ask.
 *
 * Params: size (decimal, per quote), spread_bps, requote_bps, max_inventory (decimal), skew_bps,
 * post_only.
 */
import { defer, EMPTY, filter, from, ignoreElements, merge, mergeMap, tap, type Observable } from 'rxjs';
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
  type OpenOrderSnapshot,
  type PositionSnapshot,
  type StrategyContext,
} from '../../../src/strategy/index.js';

const decimal = z.string().regex(/^\d+(\.\d+)?$/, 'expected a positive decimal string such as "0.001"');

export const marketMakerParams = z.object({
  size: decimal,
  spread_bps: z.number().positive().max(5000),
  requote_bps: z.number().positive().default(5),
  max_inventory: decimal,
  skew_bps: z.number().min(0).max(5000).default(10),
  post_only: z.boolean().default(true),
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

/** What the market maker saves per market: the centre it last quoted around and its quotes' intent ids. */
export const savedQuotesSchema = z.object({
  center: z.string(),
  bid: z.string().optional(),
  ask: z.string().optional(),
});
export type SavedQuotes = z.infer<typeof savedQuotesSchema>;

export interface LiveQuotes {
  center?: string;
  bid?: string;
  ask?: string;
}

export interface QuoteTakeover {
  readonly live: LiveQuotes;
  /** Own resting orders to cancel. */
  readonly cancel: readonly ({ readonly intentId: string } | { readonly orderId: string })[];
}

/**
 * Takes over the strategy's own resting orders of a market on start. When the saved quotes all
 * still rest (a bid as a buy, an ask as a sell), they and the saved centre are live again and
 * every other own order is cancelled; otherwise (a quote filled or cancelled while down, nothing
 * saved, orders adopted at reconciliation) every own order is cancelled and nothing is live, so
 * the first mark quotes afresh.
 */
export function takeOverQuotes(saved: SavedQuotes | undefined, own: readonly OpenOrderSnapshot[]): QuoteTakeover {
  const resting = (id: string | undefined, side: 'buy' | 'sell') =>
    id !== undefined && own.some((o) => o.intentId === id && o.side === side);
  const intact =
    saved !== undefined &&
    (saved.bid !== undefined || saved.ask !== undefined) &&
    (saved.bid === undefined || resting(saved.bid, 'buy')) &&
    (saved.ask === undefined || resting(saved.ask, 'sell'));
  const live: LiveQuotes = intact
    ? {
        center: saved.center,
        ...(saved.bid === undefined ? {} : { bid: saved.bid }),
        ...(saved.ask === undefined ? {} : { ask: saved.ask }),
      }
    : {};
  const cancel = own
    .filter((o) => o.intentId === undefined || (o.intentId !== live.bid && o.intentId !== live.ask))
    .map((o) => (o.intentId === undefined ? { orderId: o.orderId } : { intentId: o.intentId }));
  return { live, cancel };
}

function quoteMarket(ctx: StrategyContext<MarketMakerParams>, marketId: number): Observable<Intent> {
  const p = ctx.params;
  const key = `quotes-${marketId}`;
  let live: LiveQuotes = {};
  let lastMark: string | undefined;
  let touch: Touch = {};

  const requote = (force: boolean): Observable<Intent> => {
    if (lastMark === undefined) return EMPTY;
    const wanted = computeQuotes(lastMark, signedInventory(ctx.state.position(marketId)), p);
    if (!force && !shouldRequote(live.center, wanted.center, p.requote_bps)) return EMPTY;
    const tick = ctx.state.market(marketId)?.config.step_price;
    const quotes = p.post_only && tick !== undefined ? keepOffTheTouch(wanted, touch, tick) : wanted;
    const intents: Intent[] = [];
    // Cancel every quote still live: resting, in flight, or queued in the engine (a queued one
    // goes at once, never sent; the engine sends the new quotes only after these cancels), so no
    // quote is left behind to rest beside the new ones. A filled quote has nothing left to cancel.
    const open = new Set(ctx.state.openOrders(marketId).map((o) => o.intentId));
    for (const id of [live.bid, live.ask])
      if (id !== undefined && open.has(id)) intents.push(ctx.intents.cancel({ marketId, target: { intentId: id } }));
    const next: LiveQuotes & SavedQuotes = { center: quotes.center };
    if (quotes.bid !== undefined) {
      const bid = ctx.intents.placeLimit({
        marketId,
        side: 'buy',
        size: p.size,
        price: quotes.bid,
        priceRounding: 'down',
        postOnly: p.post_only,
      });
      next.bid = bid.intentId;
      intents.push(bid);
    }
    if (quotes.ask !== undefined) {
      const ask = ctx.intents.placeLimit({
        marketId,
        side: 'sell',
        size: p.size,
        price: quotes.ask,
        priceRounding: 'up',
        postOnly: p.post_only,
      });
      next.ask = ask.intentId;
      intents.push(ask);
    }
    live = next;
    // Saved before the intents leave: a restart finds the new quotes (or sees they never rested).
    ctx.storage?.save(key, next);
    ctx.log.debug({ marketId, mark: lastMark, ...quotes }, 'requote');
    return from(intents);
  };

  const onMark = ctx.streams.mark(marketId).pipe(
    mergeMap((m) => {
      lastMark = m.markPrice;
      return requote(false);
    }),
  );
  const onOwnFill = ctx.streams.fills().pipe(
    filter(
      (f) =>
        f.marketId === marketId && f.intentId !== undefined && (f.intentId === live.bid || f.intentId === live.ask),
    ),
    mergeMap(() => requote(true)),
  );
  // A quote the engine or the venue refused is not resting: forget it.
  const onDeadQuote = ctx.outcomes.pipe(
    filter(
      (o) => (o.type === 'refused' || o.type === 'failed') && (o.intentId === live.bid || o.intentId === live.ask),
    ),
    mergeMap((o) => {
      if (o.intentId === live.bid) delete live.bid;
      if (o.intentId === live.ask) delete live.ask;
      ctx.log.warn({ intentId: o.intentId, outcome: o.type }, 'quote not placed');
      return EMPTY;
    }),
  );
  const onBook = ctx.streams.book(marketId).pipe(
    tap((book) => (touch = { bestBid: book.bids[0]?.price, bestAsk: book.asks[0]?.price })),
    ignoreElements(),
  );
  // At subscription, not at definition: the engine's tracker holds the restored orders by then.
  const takeOver = defer(() => {
    const own = ctx.state.openOrders(marketId).filter((o) => o.strategy === ctx.name);
    const takeover = takeOverQuotes(ctx.storage?.load(key, savedQuotesSchema), own);
    live = { ...takeover.live };
    if (own.length > 0)
      ctx.log.info(
        { marketId, kept: own.length - takeover.cancel.length, cancelled: takeover.cancel.length },
        'resting quotes taken over',
      );
    return from(takeover.cancel.map((target) => ctx.intents.cancel({ marketId, target })));
  });
  return merge(takeOver, onBook, onMark, onOwnFill, onDeadQuote);
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

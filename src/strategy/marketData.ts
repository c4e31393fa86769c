import { distinctUntilChanged, map, Observable, type OperatorFunction, type SchedulerLike } from 'rxjs';
import { CandleBuilder } from './candleBuilder.js';
import { mid } from './priceMath.js';
import { subtractDecimals } from './decimalMath.js';
import type { BookView, Candle, TopOfBook, TradeView } from './strategyViews.js';

/** The best bid and ask of a book, with the spread and mid when both sides have a level. */
export function topOfBookOf(book: BookView): TopOfBook {
  const bestBid = book.bids[0];
  const bestAsk = book.asks[0];
  return {
    marketId: book.marketId,
    ...(bestBid === undefined ? {} : { bestBid }),
    ...(bestAsk === undefined ? {} : { bestAsk }),
    ...(bestBid === undefined || bestAsk === undefined
      ? {}
      : { spread: subtractDecimals(bestAsk.price, bestBid.price), mid: mid(bestBid.price, bestAsk.price) }),
  };
}

function sameTop(a: TopOfBook, b: TopOfBook): boolean {
  const level = (x?: { price: string; quantity: string }, y?: { price: string; quantity: string }) =>
    x === undefined || y === undefined ? x === y : x.price === y.price && x.quantity === y.quantity;
  return a.marketId === b.marketId && level(a.bestBid, b.bestBid) && level(a.bestAsk, b.bestAsk);
}

/** Book views to top-of-book views, emitting only when the best price or size of a side changed. */
export function toTopOfBook(): OperatorFunction<BookView, TopOfBook> {
  return (books) => books.pipe(map(topOfBookOf), distinctUntilChanged(sameTop));
}

export interface CandleOptions {
  readonly marketId: number;
  readonly intervalMs: number;
  /** The clock candles close on (`ctx.clock.scheduler`). */
  readonly scheduler: SchedulerLike;
  /**
   * Closed candles from before (e.g. the venue's candle read): the last one's close is where an
   * interval without trades starts, and they are emitted first.
   */
  readonly seed?: readonly Candle[];
}

/**
 * OHLCV candles from a market's public trades. Intervals are aligned to multiples of
 * `intervalMs` on the strategy clock, and a trade counts in the interval in which it arrives. A
 * candle is emitted when its interval ends, also when nothing traded (flat at the last close,
 * volume 0) once a first price is known; nothing is emitted before the first price.
 */
export function candlesFrom(trades: Observable<TradeView>, options: CandleOptions): Observable<Candle> {
  const { intervalMs, scheduler, marketId } = options;
  if (!Number.isSafeInteger(intervalMs) || intervalMs <= 0)
    throw new RangeError(`candle interval must be a positive whole number of ms, got ${intervalMs}`);
  return new Observable<Candle>((subscriber) => {
    for (const candle of options.seed ?? []) subscriber.next(candle);
    const firstStartMs = Math.floor(scheduler.now() / intervalMs) * intervalMs;
    const builder = new CandleBuilder(marketId, intervalMs, firstStartMs, options.seed?.at(-1)?.close);
    const tick = scheduler.schedule(function () {
      const candle = builder.close();
      if (candle !== undefined) subscriber.next(candle);
      this.schedule(undefined, builder.endMs - scheduler.now());
    }, builder.endMs - scheduler.now());
    const source = trades.subscribe({
      next: (trade) => builder.add(trade),
      error: (error: unknown) => subscriber.error(error),
      complete: () => subscriber.complete(),
    });
    return () => {
      tick.unsubscribe();
      source.unsubscribe();
    };
  });
}

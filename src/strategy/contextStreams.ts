import { concat, connectable, defer, Observable, of, ReplaySubject, type SchedulerLike, type Subscription } from 'rxjs';
import type { ContextStreams, StrategyStreams } from './strategyContext.js';
import { candlesFrom, toTopOfBook } from './marketData.js';
import { outsideStrategyScope, type StrategyScope } from './strategyScope.js';
import { inStrategyScope } from './strategyScopeStreams.js';

/**
 * The runtime's mark and book streams held for the host's life with their latest value replayed,
 * so a strategy (or a second subscription of one) gets the current mark and book at once instead
 * of waiting for the next change. Connected on first use; `owner` ends every connection.
 */
export class LatestMarketData {
  private readonly replayed = new Map<string, Observable<unknown>>();

  /**
   * `initialMark` gives a market's mark before the stream's first one (the runtime: the mark of
   * the venue's market list read at start-up, with block number 0), so a strategy starts on a
   * venue that is slow to publish its oracle; without it the mark stream's first value is awaited.
   */
  constructor(
    private readonly streams: StrategyStreams,
    private readonly owner: Subscription,
    private readonly initialMark?: (marketId: number) => string | undefined,
  ) {}

  mark(marketId: number): ReturnType<StrategyStreams['mark']> {
    return this.latest(`mark:${marketId}`, () => {
      const live = this.streams.mark(marketId);
      return defer(() => {
        const first = this.initialMark?.(marketId);
        return first === undefined ? live : concat(of({ marketId, markPrice: first, blockNumber: 0 }), live);
      });
    });
  }

  book(marketId: number): ReturnType<StrategyStreams['book']> {
    return this.latest(`book:${marketId}`, () => this.streams.book(marketId));
  }

  private latest<T>(key: string, source: () => Observable<T>): Observable<T> {
    let stream = this.replayed.get(key) as Observable<T> | undefined;
    if (stream === undefined) {
      const shared = connectable(source(), { connector: () => new ReplaySubject<T>(1), resetOnDisconnect: false });
      let connected = false;
      stream = new Observable<T>((subscriber) => {
        const inner = shared.subscribe(subscriber);
        if (!connected) {
          connected = true;
          // The shared connection belongs to no strategy (its errors and timers are the runtime's).
          this.owner.add(outsideStrategyScope(() => shared.connect()));
        }
        return inner;
      });
      this.replayed.set(key, stream);
    }
    return stream;
  }
}

/** The streams as one strategy sees them: replayed mark and book, scoped to it, and the derived conveniences. */
export function contextStreams(
  streams: StrategyStreams,
  latest: LatestMarketData,
  scope: StrategyScope,
  owner: Subscription,
  scheduler: SchedulerLike,
  strategy?: string,
): ContextStreams {
  const scoped = <T>(source: Observable<T>): Observable<T> => source.pipe(inStrategyScope(scope, owner));
  const mark = (marketId: number) => scoped(latest.mark(marketId));
  const book = (marketId: number) => scoped(latest.book(marketId));
  const trades = (marketId: number) => scoped(streams.trades(marketId));
  return Object.freeze({
    book,
    mark,
    trades,
    fills: () => scoped(streams.fills()),
    positions: () => scoped(streams.positions()),
    orders: () => scoped(streams.orders()),
    balance: () => scoped(streams.balance()),
    tradingState: () => scoped(streams.tradingState(strategy)),
    topOfBook: (marketId: number) => book(marketId).pipe(toTopOfBook()),
    candles: (marketId: number, intervalMs: number) =>
      candlesFrom(trades(marketId), { marketId, intervalMs, scheduler }),
  });
}

import { catchError, EMPTY, Subscription, type Observable } from 'rxjs';
import type { OrderBookFeed } from '../../venue/orderbook/orderBookFeed.js';
import type { VenueWsClient } from '../../venue/ws/venueWsClient.js';
import type { FeedClock } from './feedClock.js';

export interface FollowFeedsOptions {
  readonly ws: Pick<VenueWsClient, 'channel'>;
  readonly books: OrderBookFeed;
  readonly feeds: FeedClock;
  /** Every market the bot trades: the oracle feed (mark) is timed for each. */
  readonly markets: readonly number[];
  /** Books and trades are timed only where a strategy declared a budget on them (no extra subscriptions otherwise). */
  readonly declared: readonly { readonly channel: 'book' | 'mark' | 'trades'; readonly marketId: number }[];
}

/**
 * Times the streams the bot receives into the feed clock. Each subscription shares the one the
 * engine or the strategies hold (same channel, same markets), so it adds no wire subscription for
 * the oracle and the private channels; books and trades are followed only where declared.
 */
export function followFeeds(options: FollowFeedsOptions): Subscription {
  const { ws, books, feeds } = options;
  const subscriptions = new Subscription();
  const follow = <T>(source: Observable<T>, touch: (message: T) => void): void => {
    // The engine reports a failed feed; for this listener it just ends.
    subscriptions.add(source.pipe(catchError(() => EMPTY)).subscribe(touch));
  };
  for (const marketId of options.markets) feeds.follow('mark', marketId);
  follow(ws.channel('oracle', { marketIds: options.markets }), (m) => {
    for (const [marketId, price] of m.prices) if (price.markPrice !== undefined) feeds.touch('mark', marketId);
  });
  for (const { channel, marketId } of options.declared) {
    if (channel === 'book') follow(books.book$(marketId), () => feeds.touch('book', marketId));
    if (channel === 'trades')
      follow(ws.channel('trades', { marketIds: [marketId] }), () => feeds.touch('trades', marketId));
  }
  for (const channel of ['orders', 'positions', 'fills', 'account'] as const) {
    feeds.follow(channel);
    follow(ws.channel(channel), () => feeds.touch(channel));
  }
  return subscriptions;
}

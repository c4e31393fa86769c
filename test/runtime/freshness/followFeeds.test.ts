import { NEVER, Subject, type Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { placeLimit } from '../../../src/engine/intents/intentBuilders.js';
import { FeedClock } from '../../../src/runtime/freshness/feedClock.js';
import { followFeeds } from '../../../src/runtime/freshness/followFeeds.js';
import { FreshnessBudgets } from '../../../src/runtime/freshness/freshnessBudgets.js';
import { OrderBookFeed } from '../../../src/venue/orderbook/orderBookFeed.js';
import type { VenueWsClient } from '../../../src/venue/ws/venueWsClient.js';

/**
 * A book whose every frame the decoders refuse (wire drift: the client drops them) never emits
 * a view. The feed clock ages it from when following began, so the strategy that depends on it
 * turns reduce-only after its budget, exactly as for a silent stream.
 */
describe('followFeeds with a book the decoders refuse from its first frame', () => {
  it('the book goes stale after its budget and opening intents are refused (FEED_STALE); reduce-only ones go', async () => {
    const clock = new ManualClock(1_000_000);
    const feeds = new FeedClock(clock);
    const budgets = new FreshnessBudgets(feeds, [{ name: 'mm', markets: [1], budget: { book: 5000 } }]);
    // Nothing decodable ever arrives on the orderbook channel; the other channels are quiet too.
    const refusedBook = new Subject<never>();
    const ws = {
      channel: (name: string): Observable<never> => (name === 'orderbook' ? refusedBook : NEVER),
      resubscribe: () => undefined,
    } as unknown as VenueWsClient;
    const followed = followFeeds({
      ws,
      books: new OrderBookFeed(ws),
      feeds,
      markets: [1],
      declared: budgets.declared(),
    });

    await clock.advance(4_999);
    expect(budgets.staleFeeds('mm')).toEqual([]);
    await clock.advance(2);
    expect(budgets.staleFeeds('mm')).toEqual([{ channel: 'book', marketId: 1, ageMs: 5_001, budgetMs: 5_000 }]);
    const base = { strategy: 'mm', marketId: 1, side: 'buy' as const, size: '1', price: '10' };
    expect(budgets.verdict('mm', placeLimit({ ...base, intentId: 'open' }))).toMatchObject({
      kind: 'refuse',
      refusal: { rule: 'feed_stale' },
    });
    expect(budgets.verdict('mm', placeLimit({ ...base, intentId: 'reduce', reduceOnly: true })).kind).toBe('allow');
    followed.unsubscribe();
  });
});

import { firstValueFrom, type Subscription } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { orderbookChecksum } from '../../../src/protocol/orderbookChecksum.js';
import { OrderBookFeed, type OrderBookView } from '../../../src/venue/orderbook/orderBookFeed.js';
import { VenueWsClient } from '../../../src/venue/ws/venueWsClient.js';
import { ScriptedVenue } from '../ws/scriptedVenue.js';
import { advanceWhenSleeping } from '../ws/testAuthenticator.js';
import { bookWire, prices, type Level } from './bookFrames.js';

let venue: ScriptedVenue;
let client: VenueWsClient;
let clock: ManualClock;
const subscriptions: Subscription[] = [];

beforeEach(async () => {
  venue = await ScriptedVenue.start();
  clock = new ManualClock(0);
  client = new VenueWsClient({
    url: venue.url,
    knownMarketIds: async () => [1, 2],
    clock,
    staleAfterBlocks: 0,
    reconnect: { baseMs: 100, jitter: 0 },
  });
});

afterEach(async () => {
  for (const s of subscriptions.splice(0)) s.unsubscribe();
  await client.close();
  await venue.close();
});

function sum(bids: Level[], asks: Level[]): number {
  const toLevel = ([price, quantity]: Level): { price: string; quantity: string } => ({ price, quantity });
  return orderbookChecksum(bids.map(toLevel), asks.map(toLevel));
}

/** Collects views and lets a test wait for the n-th one. */
function collect(
  feed: OrderBookFeed,
  marketId: number,
  depth?: number,
): { views: OrderBookView[]; nth(n: number): Promise<OrderBookView> } {
  const views: OrderBookView[] = [];
  const waiters: { n: number; resolve: (v: OrderBookView) => void }[] = [];
  subscriptions.push(
    feed.book$(marketId, depth).subscribe((view) => {
      views.push(view);
      for (const w of waiters.filter((w) => w.n === views.length)) w.resolve(view);
    }),
  );
  return {
    views,
    nth: (n) =>
      views.length >= n ? Promise.resolve(views[n - 1]!) : new Promise((resolve) => waiters.push({ n, resolve })),
  };
}

describe('OrderBookFeed', () => {
  it('keeps the book from the snapshot and absolute updates, verified by checksum', async () => {
    const feed = new OrderBookFeed(client);
    const book = collect(feed, 1, 2);
    const subscribe = await venue.frameWith('subscribe', 'orderbook');
    expect(subscribe.frame.params).toEqual({ channel: 'orderbook', market_ids: [1] });
    venue.push(
      bookWire(
        'snapshot',
        1,
        [
          ['65000', '1'],
          ['64999.5', '2'],
          ['64990', '3'],
        ],
        [['65001', '0.5']],
        sum(
          [
            ['65000', '1'],
            ['64999.5', '2'],
            ['64990', '3'],
          ],
          [['65001', '0.5']],
        ),
      ),
    );
    const first = await book.nth(1);
    expect(prices(first.bids)).toEqual([
      ['65000', '1'],
      ['64999.5', '2'],
    ]);
    expect(first.bestAsk?.price).toBe('65001');
    venue.push(
      bookWire(
        'update',
        1,
        [['65000', '0']],
        [['65000.5', '0.25']],
        sum(
          [
            ['64999.5', '2'],
            ['64990', '3'],
          ],
          [
            ['65000.5', '0.25'],
            ['65001', '0.5'],
          ],
        ),
        2,
      ),
    );
    const second = await book.nth(2);
    expect(second.bestBid).toMatchObject({ price: '64999.5', quantity: '2' });
    expect(second.bestAsk).toMatchObject({ price: '65000.5', quantity: '0.25' });
    expect(second.blockNumber).toBe(2);
    expect(prices(first.bids)).toEqual([
      ['65000', '1'],
      ['64999.5', '2'],
    ]); // views are immutable
    expect(feed.metrics.checksumMismatches).toBe(0);
  });

  it('on a checksum mismatch counts it and resubscribes for a fresh snapshot', async () => {
    const feed = new OrderBookFeed(client);
    const book = collect(feed, 1);
    await venue.frameWith('subscribe', 'orderbook');
    venue.push(bookWire('snapshot', 1, [['100', '1']], [], sum([['100', '1']], [])));
    await book.nth(1);
    const before = venue.frames.length;
    venue.push(bookWire('update', 1, [['100', '2']], [], 12345));
    const unsubscribe = await venue.frameWith('unsubscribe', 'orderbook', before);
    const resubscribe = await venue.frameWith('subscribe', 'orderbook', before);
    expect(venue.frames.indexOf(resubscribe)).toBeGreaterThan(venue.frames.indexOf(unsubscribe));
    expect(resubscribe.frame.params).toEqual({ channel: 'orderbook', market_ids: [1] });
    expect(feed.metrics.checksumMismatches).toBe(1);
    venue.push(bookWire('update', 1, [['100', '9']], [])); // in flight from before the resubscribe
    venue.push(bookWire('snapshot', 1, [['100', '2']], [], sum([['100', '2']], [])));
    const fresh = await book.nth(2);
    expect(prices(fresh.bids)).toEqual([['100', '2']]);
    expect(book.views).toHaveLength(2);
  });

  it('after a reconnect ignores updates until the new snapshot', async () => {
    const feed = new OrderBookFeed(client);
    const book = collect(feed, 1);
    await venue.frameWith('subscribe', 'orderbook');
    venue.push(bookWire('snapshot', 1, [['100', '1']], []));
    await book.nth(1);
    venue.drop();
    await advanceWhenSleeping(clock, 100);
    await venue.nextFrame((f) => f.connection === 1 && f.frame.method === 'subscribe');
    venue.push(bookWire('update', 1, [['101', '1']], []));
    venue.push(bookWire('snapshot', 1, [['99', '5']], []));
    const after = await book.nth(2);
    expect(prices(after.bids)).toEqual([['99', '5']]);
    expect(book.views).toHaveLength(2);
  });

  it('asks for a snapshot again when updates keep coming without one (the snapshot was lost)', async () => {
    const feed = new OrderBookFeed(client, { updatesWithoutSnapshot: 2 });
    const book = collect(feed, 1);
    await venue.frameWith('subscribe', 'orderbook');
    const before = venue.frames.length;
    // Two updates before a snapshot are tolerated (in flight around a resubscribe)...
    venue.push(bookWire('update', 1, [['101', '1']], []));
    venue.push(bookWire('update', 1, [['102', '1']], []));
    venue.push(bookWire('update', 1, [['103', '1']], []));
    // ...the third is one too many: the snapshot is not coming.
    await venue.frameWith('unsubscribe', 'orderbook', before);
    const resubscribe = await venue.frameWith('subscribe', 'orderbook', before);
    expect(resubscribe.frame.params).toEqual({ channel: 'orderbook', market_ids: [1] });
    expect(feed.metrics).toEqual({ checksumMismatches: 0, resyncs: 1 });
    venue.push(bookWire('snapshot', 1, [['99', '5']], []));
    const synced = await book.nth(1);
    expect(prices(synced.bids)).toEqual([['99', '5']]);
    expect(venue.sent('subscribe', 'orderbook')).toHaveLength(2);
  });

  it('refuses a negative or fractional updatesWithoutSnapshot', () => {
    expect(() => new OrderBookFeed(client, { updatesWithoutSnapshot: -1 })).toThrow(/updatesWithoutSnapshot/);
    expect(() => new OrderBookFeed(client, { updatesWithoutSnapshot: 1.5 })).toThrow(/updatesWithoutSnapshot/);
  });

  it('shares one book stream per market', async () => {
    const feed = new OrderBookFeed(client);
    expect(feed.book$(2)).toBe(feed.book$(2));
    const a = firstValueFrom(feed.book$(2));
    const b = firstValueFrom(feed.book$(2));
    await venue.frameWith('subscribe', 'orderbook');
    venue.push(bookWire('snapshot', 2, [['3200', '1']], []));
    expect(await a).toBe(await b);
    expect(venue.sent('subscribe', 'orderbook')).toHaveLength(1);
  });
});

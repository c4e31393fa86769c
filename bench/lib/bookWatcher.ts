import { Subscription } from 'rxjs';
import type { RestClient } from '../../src/venue/rest/restClient.js';
import { OrderBookFeed } from '../../src/venue/orderbook/orderBookFeed.js';
import { VenueWsClient } from '../../src/venue/ws/venueWsClient.js';

/**
 * A market-data consumer beside the bot in the soak process: local books of every market (the
 * runtime's OrderBookFeed, checksums checked) and the trades channel, over its own WebSocket
 * client. The default strategy reads only the oracle mark, one frame per block; the watcher adds
 * one orderbook frame per market per block (and the trades), so the process ingests several
 * frames per block instead of one.
 */
export interface BookWatcher {
  stats(): { views: number; trades: number; checksumMismatches: number; reconnects: number; framesReceived: number };
  close(): Promise<void>;
}

export async function startBookWatcher(wsUrl: string, rest: RestClient): Promise<BookWatcher> {
  const ids = (await rest.markets()).markets.map((m) => Number(m.market_id));
  const ws = new VenueWsClient({ url: wsUrl, knownMarketIds: async () => ids, staleAfterBlocks: 0 });
  const feed = new OrderBookFeed(ws);
  const subscriptions = new Subscription();
  let views = 0;
  let trades = 0;
  for (const id of ids) subscriptions.add(feed.book$(id, 10).subscribe(() => views++));
  subscriptions.add(ws.channel('trades').subscribe((m) => (trades += m.trades.length)));
  return {
    stats: () => ({
      views,
      trades,
      checksumMismatches: feed.metrics.checksumMismatches,
      reconnects: ws.metrics.reconnects,
      framesReceived: ws.metrics.framesReceived,
    }),
    close: async () => {
      subscriptions.unsubscribe();
      await ws.close();
    },
  };
}

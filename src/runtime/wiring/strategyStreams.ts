import { filter, map, mergeMap, from, type Observable } from 'rxjs';
import type { Engine } from '../../engine/engine.js';
import type { StrategyStreams } from '../../strategy/strategyContext.js';
import type { FillView, MarkPrice } from '../../strategy/strategyViews.js';
import { toOpenOrderSnapshot, toPositionSnapshot } from './stateSnapshot.js';
import type { OrderBookFeed } from '../../venue/orderbook/orderBookFeed.js';
import type { VenueWsClient } from '../../venue/ws/venueWsClient.js';

/**
 * The venue's channels and the engine's tracked state, as the streams strategies read. Shared
 * subscriptions come from the WebSocket client; reconnects stay invisible here.
 */
export function strategyStreams(ws: VenueWsClient, books: OrderBookFeed, engine: Engine): StrategyStreams {
  return {
    book: (marketId) => books.book$(marketId).pipe(map((v) => ({ marketId: v.marketId, bids: v.bids, asks: v.asks }))),
    mark: (marketId): Observable<MarkPrice> =>
      ws.channel('oracle', { marketIds: [marketId] }).pipe(
        mergeMap((m) => {
          const price = m.prices.get(marketId);
          if (price?.markPrice === undefined) return [];
          return [{ marketId, markPrice: price.markPrice, ...(price.indexPrice === undefined ? {} : { indexPrice: price.indexPrice }), blockNumber: m.blockNumber }];
        }),
      ),
    trades: (marketId) =>
      ws.channel('trades', { marketIds: [marketId] }).pipe(
        mergeMap((m) => from(m.trades.filter((t) => t.marketId === undefined || t.marketId === marketId))),
        map((t) => ({ price: t.price, size: t.size, makerSide: t.makerSide })),
      ),
    fills: (): Observable<FillView> =>
      engine.fills$.pipe(
        map((f) => ({
          id: f.id,
          marketId: f.marketId,
          orderId: f.orderId,
          ...(f.intentId === undefined ? {} : { intentId: f.intentId }),
          side: f.side,
          price: f.price,
          size: f.size,
          fee: f.fee,
          liquidity: f.liquidity,
        })),
      ),
    positions: () => ws.channel('positions').pipe(map(() => engine.tracker.allPositions().map(toPositionSnapshot))),
    orders: () => engine.orders$.pipe(map(() => engine.tracker.openOrders().map(toOpenOrderSnapshot))),
    balance: () =>
      ws.channel('account').pipe(
        map((m) => m.account.balance),
        filter((b): b is string => typeof b === 'string'),
      ),
  };
}

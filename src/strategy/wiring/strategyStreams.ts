import { filter, from, map, mergeMap, type Observable } from 'rxjs';
import type { Clock } from '../../core/clock.js';
import type { Engine } from '../../engine/engine.js';
import type { TrackedFill } from '../../engine/tracking/orderTracker.js';
import type { StrategyStreams } from '../strategyContext.js';
import type { FillView, MarkPrice, TradeView } from '../strategyViews.js';
import type { OrderBookFeed } from '../../venue/orderbook/orderBookFeed.js';
import type { OracleMessage, TradesMessage } from '../../venue/schemas/wsFrames.js';
import type { VenueWsClient } from '../../venue/ws/venueWsClient.js';
import { positionSnapshotOf, toOpenOrderSnapshot } from './stateSnapshot.js';
import type { VenueExtras } from './venueExtras.js';

/**
 * What the streams read besides the venue and the engine: fill times and position extras, a clock
 * for fills the venue did not time.
 */
export interface StreamExtras {
  readonly venue: Pick<VenueExtras, 'fillTimeMs' | 'position'>;
  readonly clock: Clock;
}

/**
 * The venue's channels and the engine's tracked state, as the streams strategies read. Shared
 * subscriptions come from the WebSocket client; reconnects stay invisible here.
 */
export function strategyStreams(
  ws: Pick<VenueWsClient, 'channel'>,
  books: OrderBookFeed,
  engine: Engine,
  extras?: StreamExtras,
): StrategyStreams {
  const now = (): number => extras?.clock.now() ?? Date.now();
  return {
    book: (marketId) => books.book$(marketId).pipe(map((v) => ({ marketId: v.marketId, bids: v.bids, asks: v.asks }))),
    mark: (marketId): Observable<MarkPrice> =>
      // map and filter, not mergeMap: no inner subscription per oracle frame on a mark's way to the strategy.
      ws.channel('oracle', { marketIds: [marketId] }).pipe(
        map((m) => markOf(m, marketId)),
        filter((mark): mark is MarkPrice => mark !== undefined),
      ),
    trades: (marketId): Observable<TradeView> =>
      ws.channel('trades', { marketIds: [marketId] }).pipe(mergeMap((m) => from(tradesOf(m, marketId)))),
    fills: (): Observable<FillView> =>
      engine.fills$.pipe(map((f) => fillViewOf(f, extras?.venue.fillTimeMs(f.id) ?? now()))),
    positions: () =>
      ws
        .channel('positions')
        .pipe(map(() => engine.tracker.allPositions().map((p) => positionSnapshotOf(engine, p, extras?.venue)))),
    orders: () => engine.orderEvents$.pipe(map(() => engine.tracker.openOrders().map(toOpenOrderSnapshot))),
    tradingState: (strategy) =>
      (strategy === undefined ? engine.tradingState$ : engine.tradingStateOf(strategy)).pipe(
        map((s) => ({ mode: s.mode, reasons: s.reasons, sinceMs: s.sinceMs })),
      ),
    balance: () =>
      ws.channel('account').pipe(
        map((m) => m.account.balance),
        filter((b): b is string => typeof b === 'string'),
      ),
  };
}

/** The market's mark in one oracle update: none when the update has no mark for it. */
function markOf(m: OracleMessage, marketId: number): MarkPrice | undefined {
  const price = m.prices.get(marketId);
  if (price?.markPrice === undefined) return undefined;
  const index = price.indexPrice;
  // Two literals, not a spread of a conditional object per mark; the keys in the same order.
  return index === undefined
    ? { marketId, markPrice: price.markPrice, blockNumber: m.blockNumber }
    : { marketId, markPrice: price.markPrice, indexPrice: index, blockNumber: m.blockNumber };
}

/** The market's trades in one trades message, each with its aggressor and the message's time. */
function tradesOf(m: TradesMessage, marketId: number): TradeView[] {
  // The envelope's worker timestamp is nanoseconds.
  const timeMs = Number(m.workerTimestamp / 1_000_000n);
  return m.trades
    .filter((t) => t.marketId === undefined || t.marketId === marketId)
    .map((t): TradeView => ({
      marketId,
      id: t.id,
      price: t.price,
      size: t.size,
      makerSide: t.makerSide,
      aggressorSide: t.makerSide === 'buy' ? 'sell' : 'buy',
      timeMs,
    }));
}

function fillViewOf(f: TrackedFill, timeMs: number): FillView {
  return {
    id: f.id,
    marketId: f.marketId,
    orderId: f.orderId,
    ...(f.intentId === undefined ? {} : { intentId: f.intentId }),
    ...(f.strategy === undefined ? {} : { strategy: f.strategy }),
    side: f.side,
    price: f.price,
    size: f.size,
    fee: f.fee,
    liquidity: f.liquidity,
    timeMs,
  };
}

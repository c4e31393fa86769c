import type { Engine } from '../../engine/engine.js';
import type { StateSnapshot } from '../../strategy/strategyViews.js';

/** Synchronous reads of what the engine tracks, for strategies. */
export function stateSnapshot(engine: Engine): StateSnapshot {
  return {
    markets: () => engine.markets(),
    market: (marketId) => engine.market(marketId),
    position: (marketId) => {
      const p = engine.tracker.position(marketId);
      if (p === undefined) return undefined;
      return { marketId, side: p.side, size: p.size, ...(p.avgEntryPrice === undefined ? {} : { avgEntryPrice: p.avgEntryPrice }) };
    },
    openOrders: (marketId) =>
      engine.tracker.openOrders(marketId === undefined ? {} : { marketId }).map((o) => ({
        orderId: o.orderId ?? '',
        intentId: o.intentId,
        strategy: o.strategy,
        marketId: o.marketId,
        side: o.side,
        price: o.price,
        size: o.size,
        filledSize: o.filledSize,
      })),
    balance: () => engine.tracker.currentBalance(),
  };
}

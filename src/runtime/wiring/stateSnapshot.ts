import type { Engine } from '../../engine/engine.js';
import type { TrackedOrder, TrackedPosition } from '../../engine/orderTracker.js';
import type { OpenOrderSnapshot, PositionSnapshot, StateSnapshot } from '../../strategy/strategyViews.js';

/** The engine's tracked order as a strategy sees it. */
export function toOpenOrderSnapshot(o: TrackedOrder): OpenOrderSnapshot {
  return {
    orderId: o.orderId ?? '',
    intentId: o.intentId,
    strategy: o.strategy,
    marketId: o.marketId,
    side: o.side,
    price: o.price,
    size: o.size,
    filledSize: o.filledSize,
  };
}

export function toPositionSnapshot(p: TrackedPosition): PositionSnapshot {
  return { marketId: p.marketId, side: p.side, size: p.size, ...(p.avgEntryPrice === undefined ? {} : { avgEntryPrice: p.avgEntryPrice }) };
}

/** Synchronous reads of what the engine tracks, for strategies. */
export function stateSnapshot(engine: Engine): StateSnapshot {
  return {
    markets: () => engine.markets(),
    market: (marketId) => engine.market(marketId),
    position: (marketId) => {
      const p = engine.tracker.position(marketId);
      return p === undefined ? undefined : toPositionSnapshot(p);
    },
    openOrders: (marketId) => engine.tracker.openOrders(marketId === undefined ? {} : { marketId }).map(toOpenOrderSnapshot),
    balance: () => engine.tracker.currentBalance(),
  };
}

import { compareDecimals, isDecimalString, negateDecimal } from '../../core/decimal.js';
import type { Engine } from '../../engine/engine.js';
import { unrealisedPnlOf } from '../../engine/ledger/averageEntry.js';
import { isTerminal } from '../../engine/orders/orderState.js';
import type { TrackedOrder, TrackedPosition } from '../../engine/tracking/orderTracker.js';
import type {
  FundingView,
  OpenOrderSnapshot,
  OpenOrderState,
  PositionSnapshot,
  StateSnapshot,
} from '../strategyViews.js';
import type { PositionExtras } from './venueExtras.js';

/** The engine's tracked (live) order as a strategy sees it, its state named as the strategy guide does. */
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
    state: openOrderStateOf(o.state),
  };
}

function openOrderStateOf(state: TrackedOrder['state']): OpenOrderState {
  // An order that has ended is never listed as open; were one passed, it shows as what it was last.
  return isTerminal(state) ? 'submitted' : state;
}

/**
 * A tracked position as a strategy sees it: signed size, the mark, unrealised PnL at the mark
 * (valued as the ledger values positions, from the average entry; the venue's own figure when the
 * entry is unknown) and the venue's liquidation price where it reports one.
 */
export function toPositionSnapshot(p: TrackedPosition, mark?: string, extras?: PositionExtras): PositionSnapshot {
  const flat = compareDecimals(p.size, '0') === 0;
  const signedSize = flat ? '0' : p.side === 'buy' ? p.size : negateDecimal(p.size);
  const unrealisedPnl =
    mark !== undefined && p.avgEntryPrice !== undefined
      ? unrealisedPnlOf(signedSize, p.avgEntryPrice, mark)
      : extras?.unrealizedPnl;
  // Keys set one by one, in this order, not conditional spreads: a strategy may read it at every mark.
  const snapshot: { -readonly [K in keyof PositionSnapshot]: PositionSnapshot[K] } = {
    marketId: p.marketId,
    side: p.side,
    size: p.size,
    signedSize,
  };
  if (p.avgEntryPrice !== undefined) snapshot.avgEntryPrice = p.avgEntryPrice;
  if (mark !== undefined) snapshot.markPrice = mark;
  if (unrealisedPnl !== undefined) {
    snapshot.unrealisedPnl = unrealisedPnl;
    snapshot.unrealizedPnl = unrealisedPnl;
  }
  if (extras?.liquidationPrice !== undefined) snapshot.liquidationPrice = extras.liquidationPrice;
  return snapshot;
}

/** What the snapshot reads besides the engine (the runtime's VenueExtras). */
export interface SnapshotExtras {
  position(marketId: number): PositionExtras | undefined;
}

/** A tracked position of the engine with its mark and the venue's extras. */
export function positionSnapshotOf(
  engine: Pick<Engine, 'markOf'>,
  p: TrackedPosition,
  extras?: SnapshotExtras,
): PositionSnapshot {
  return toPositionSnapshot(p, engine.markOf(p.marketId), extras?.position(p.marketId));
}

/** Funding fields where the venue's market record carries them (venue-facts: not in the spec's record). */
export function fundingOf(marketId: number, record: object | undefined): FundingView | undefined {
  if (record === undefined) return undefined;
  const r = record as Record<string, unknown>;
  const rate = r['current_funding_rate'];
  const rate8h = r['funding_rate_8h'];
  const next = r['next_funding_time'];
  const nextMs =
    typeof next === 'string' && /^\d+$/.test(next)
      ? Number(BigInt(next) / 1_000_000n)
      : typeof next === 'number'
        ? Math.floor(next / 1_000_000)
        : undefined;
  if (!isDecimalString(rate) && !isDecimalString(rate8h) && nextMs === undefined) return undefined;
  return {
    marketId,
    ...(isDecimalString(rate) ? { rate } : {}),
    ...(isDecimalString(rate8h) ? { rate8h } : {}),
    ...(nextMs === undefined ? {} : { nextFundingTimeMs: nextMs }),
  };
}

/** Synchronous reads of what the engine tracks, for strategies. */
export function stateSnapshot(engine: Engine, extras?: SnapshotExtras): StateSnapshot {
  return {
    markets: () => engine.markets(),
    market: (marketId) => engine.market(marketId),
    marketConfig: (marketId) => engine.marketConfig(marketId),
    position: (marketId) => {
      const p = engine.tracker.position(marketId);
      return p === undefined ? undefined : positionSnapshotOf(engine, p, extras);
    },
    openOrders: (marketId) =>
      engine.tracker.openOrders(marketId === undefined ? {} : { marketId }).map(toOpenOrderSnapshot),
    balance: () => engine.tracker.currentBalance(),
    funding: (marketId) => fundingOf(marketId, engine.market(marketId)),
  };
}

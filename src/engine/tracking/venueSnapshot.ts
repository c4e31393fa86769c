import type { Address } from '../../core/address.js';
import type { OpenOrder } from '../../venue/schemas/restOrders.js';
import type { OrderRecord, PositionRecord } from '../../venue/schemas/wsFramesPrivate.js';
import { readVenueState, type VenueStateOptions, type VenueStateReads } from '../../venue/state/readVenueState.js';
import { readVenuePosition, type VenuePosition } from '../../venue/state/venuePosition.js';

/**
 * The account as REST shows it, in the shapes the WebSocket feeds use, so the tracker applies a
 * reconciliation exactly like a feed snapshot. Everything is read before anything is applied.
 */
export interface VenueSnapshot {
  /** Every open order of the markets read (a snapshot: an order of ours not listed is closed). */
  readonly orders: readonly OrderRecord[];
  readonly positions: readonly PositionRecord[];
  readonly balance: string;
}

/**
 * Read with the venue layer's one reader (`readVenueState`: every page of open orders, accepted
 * only when consistent, and each position normalised once); only the mapping to the tracker's
 * records is the engine's.
 */
export async function readVenueSnapshot(
  rest: VenueStateReads,
  account: Address,
  marketIds: readonly number[],
  options: Pick<VenueStateOptions, 'pageSize'> = {},
): Promise<VenueSnapshot> {
  const state = await readVenueState(rest, { account, markets: marketIds }, options);
  return {
    orders: state.openOrders.map(orderRecordOf),
    positions: [...state.positions.values()].map(positionRecordOf),
    balance: state.balance,
  };
}

function orderRecordOf(o: OpenOrder): OrderRecord {
  return {
    order_id: o.order_id,
    market_id: Number(o.market_id),
    status: 'ORDER_STATUS_OPEN',
    side: o.side === 0 ? 'buy' : 'sell',
    resting_order_id: o.resting_order_id.toString(),
    wide_order_id: o.wide_order_id.toString(),
    ...(o.client_order_id === undefined ? {} : { client_order_id: o.client_order_id.toString() }),
  };
}

/** The positions of some markets alone, as the positions feed carries them. */
export async function readVenuePositions(
  rest: Pick<VenueStateReads, 'position'>,
  account: Address,
  marketIds: readonly number[],
): Promise<PositionRecord[]> {
  const positions = await Promise.all(marketIds.map((marketId) => readVenuePosition(rest, account, marketId)));
  return positions.map(positionRecordOf);
}

/** A flat position is a record of size "0": the tracker removes it. */
function positionRecordOf(p: VenuePosition): PositionRecord {
  return {
    market_id: p.marketId,
    size: p.size,
    side: p.side,
    ...(p.marginMode === undefined ? {} : { margin_mode: p.marginMode }),
    ...(p.avgEntryPrice === undefined ? {} : { avg_entry_price: p.avgEntryPrice }),
    ...(p.isolatedBalance === undefined ? {} : { isolated_usdc_balance: p.isolatedBalance }),
  };
}

import type { Address } from '../../core/address.js';
import type { OpenOrder } from '../../venue/schemas/restOrders.js';
import type { OrderRecord, PositionRecord } from '../../venue/schemas/wsFramesPrivate.js';
import type { VenueSnapshot, VenueSnapshotReads } from '../../venue/state/venueSnapshot.js';
import { readVenuePosition, type VenuePosition } from '../../venue/state/venuePosition.js';

/**
 * The venue's snapshot (`venue/state/venueSnapshot.ts`, the one reader) in the shapes the
 * WebSocket feeds use, so the tracker applies a reconciliation exactly like a feed snapshot: every
 * open order of the markets read (an order of ours not listed is closed), each position, the balance.
 */
export function orderRecordsOf(snapshot: VenueSnapshot): OrderRecord[] {
  return snapshot.openOrders.map(orderRecordOf);
}

export function positionRecordsOf(snapshot: VenueSnapshot): PositionRecord[] {
  return [...snapshot.positions.values()].map(positionRecordOf);
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
  rest: Pick<VenueSnapshotReads, 'position'>,
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

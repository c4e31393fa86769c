import type { Address } from '../../core/address.js';
import type { OrderHistoryQuery } from '../../venue/rest/historyEndpoints.js';
import type { OrderHistory } from '../../venue/schemas/restHistory.js';
import type { OrderRecord } from '../../venue/schemas/wsFramesPrivate.js';
import { isResting, type TrackedOrder } from '../orders/trackedOrder.js';

/** The venue's order history, read by order ids (at most 100 a read). */
export interface OrderHistoryReads {
  orderHistory(query: OrderHistoryQuery): Promise<OrderHistory>;
}

const IDS_PER_READ = 100;

/**
 * The fate of the orders the engine holds as resting that a fresh snapshot of the open orders no
 * longer lists, from the venue's order history: filled (with what filled) or cancelled, as order
 * records the tracker applies like a feed's before the snapshot closes what is left. Without it a
 * reconnect would call an order that filled while the feeds were down "cancelled" (its fills not
 * seen yet), and the journal's reconciliation, which reads the history, would say "filled".
 */
export async function unlistedOrderFates(
  rest: OrderHistoryReads,
  account: Address,
  held: readonly TrackedOrder[],
  listed: readonly OrderRecord[],
): Promise<OrderRecord[]> {
  const open = new Set(listed.map((r) => r.order_id.toLowerCase()));
  const ids = held
    .filter((o) => isResting(o.state) && o.orderId !== undefined && !open.has(o.orderId.toLowerCase()))
    .map((o) => o.orderId as string);
  const records: OrderRecord[] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_READ) {
    const chunk = ids.slice(i, i + IDS_PER_READ);
    const history = await rest.orderHistory({ account, orderIds: chunk, limit: IDS_PER_READ });
    for (const r of history.orders)
      if (r.status !== 'ORDER_STATUS_OPEN' && r.status !== 'ORDER_STATUS_NONE')
        records.push({
          order_id: r.id,
          market_id: Number(r.market_id),
          status: r.status,
          side: r.side === 'BUY' ? 'buy' : 'sell',
          filled_size: r.filled_size,
          ...(r.client_order_id === undefined ? {} : { client_order_id: String(r.client_order_id) }),
        });
  }
  return records;
}

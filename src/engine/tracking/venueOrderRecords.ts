import type { OrderModelEvent } from '../orders/orderModelEvent.js';
import { restingIdFromOrderId } from '../orders/trackedOrder.js';
import type { OrderRecord } from '../../venue/schemas/wsFramesPrivate.js';
import type { ForeignOrders } from './foreignOrders.js';
import type { OrderRegistry } from './orderRegistry.js';

/** What the venue's order records move: the tracker's orders (through its one `apply`) and the foreign ones. */
export interface OrderRecordsTarget {
  readonly orders: OrderRegistry;
  readonly foreign: ForeignOrders;
  apply(intentId: string, event: OrderModelEvent): void;
  placed(intentId: string, orderId: string): void;
}

/** One venue order record: ours (adopted if its placement answer was lost) or foreign. Returns its key. */
export function applyOrderRecord(target: OrderRecordsTarget, record: OrderRecord): string {
  const key = record.order_id.toLowerCase();
  const resting =
    record.resting_order_id === undefined ? restingIdFromOrderId(record.order_id) : BigInt(record.resting_order_id);
  const intentId = target.orders.intentOfOrderId(key) ?? adoptedIntent(target, record.client_order_id, record.order_id);
  if (intentId === undefined) {
    if (record.status === 'ORDER_STATUS_OPEN') target.foreign.open(key, record.market_id, resting);
    else target.foreign.forget(key);
    return key;
  }
  target.apply(intentId, {
    type: 'venue_reported',
    status: record.status,
    filledSize: record.filled_size,
    restingOrderId: resting,
  });
  return key;
}

/** After a snapshot of every open order: one it no longer lists (ours unless it `keepsOpen`; foreign) is not open. */
export function closeUnlisted(
  target: OrderRecordsTarget,
  listed: ReadonlySet<string>,
  keepsOpen: (intentId: string) => boolean,
): void {
  for (const order of [...target.orders.open()]) {
    if (order.orderId !== undefined && !listed.has(order.orderId.toLowerCase()) && !keepsOpen(order.intentId))
      target.apply(order.intentId, { type: 'left_book' });
  }
  target.foreign.keepOnly(listed);
}

/**
 * An order (or a fill of one) the venue reports that we have no order id for, but whose
 * client_order_id is one of ours still submitted or unknown: its placement landed although the
 * answer was lost. An IOC or FOK order that filled at once is only ever seen this way.
 */
export function adoptedIntent(
  target: OrderRecordsTarget,
  clientOrderId: string | undefined,
  orderId: string,
): string | undefined {
  if (clientOrderId === undefined) return undefined;
  const intentId = target.orders.intentOfClientOrderId(clientOrderId);
  const order = intentId === undefined ? undefined : target.orders.get(intentId);
  if (order === undefined || order.orderId !== undefined || (order.state !== 'submitted' && order.state !== 'unknown'))
    return undefined;
  target.placed(order.intentId, orderId);
  return order.intentId;
}

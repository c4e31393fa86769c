import type { OrderRecord, OrdersMessage } from '../schemas/wsFramesPrivate.js';
import {
  decodeChannelEnvelope,
  decodeDecimal,
  decodeList,
  decodeMarketId,
  decodeSide,
  isJsonObject,
  type JsonObject,
  withEnvelope,
} from './fastDecodeFields.js';
import { copyUndeclaredKeys, setOptional } from './fastDecodeLooseRecord.js';
import {
  decodeAddress,
  decodeNonEmptyString,
  decodeOrderStatus,
  decodeStepCount,
  decodeVenueOrderNumber,
  setClientOrderId,
} from './fastDecodePrivateFields.js';

/**
 * Hand-checked decoder for orders frames (a replay sends every order change of the account through
 * the client's decoder): the same message as `ordersFrameSchema`, key order included, and undefined
 * for every frame it refuses.
 */
export function fastDecodeOrders(frame: unknown): OrdersMessage | undefined {
  const envelope = decodeChannelEnvelope(frame, 'orders');
  if (envelope === undefined) return undefined;
  const orders = decodeList(envelope.data, decodeOrder);
  if (orders === undefined) return undefined;
  return withEnvelope<OrdersMessage>(envelope.meta, { channel: 'orders', type: envelope.type, orders });
}

/** orderRecordObjectSchema's keys, in its order. */
const DECLARED: ReadonlySet<string> = new Set([
  'order_id',
  'market_id',
  'status',
  'side',
  'account',
  'size_steps',
  'price_ticks',
  'filled_size',
  'client_order_id',
  'wide_order_id',
  'resting_order_id',
]);

function decodeOrder(raw: unknown): OrderRecord | undefined {
  if (!isJsonObject(raw)) return undefined;
  // orderRecordWireSchema's preprocess: a history record's `id` stands in for an absent `order_id`.
  const orderId = decodeNonEmptyString('order_id' in raw || !('id' in raw) ? raw.order_id : raw.id);
  const marketId = decodeMarketId(raw.market_id);
  const status = decodeOrderStatus(raw.status);
  if (orderId === undefined || marketId === undefined || status === undefined) return undefined;
  const order: OrderRecord = { order_id: orderId, market_id: marketId, status };
  if (!setOptionalFields(order, raw)) return undefined;
  copyUndeclaredKeys(order, raw, DECLARED);
  return order;
}

/** The optional declared fields, in the shape's order; false when one is present and malformed. */
function setOptionalFields(order: JsonObject, raw: JsonObject): boolean {
  return (
    setOptional(order, raw, 'side', decodeSide) &&
    setOptional(order, raw, 'account', decodeAddress) &&
    setOptional(order, raw, 'size_steps', decodeStepCount) &&
    setOptional(order, raw, 'price_ticks', decodeStepCount) &&
    setOptional(order, raw, 'filled_size', decodeDecimal) &&
    setClientOrderId(order, raw) &&
    setOptional(order, raw, 'wide_order_id', decodeVenueOrderNumber) &&
    setOptional(order, raw, 'resting_order_id', decodeVenueOrderNumber)
  );
}

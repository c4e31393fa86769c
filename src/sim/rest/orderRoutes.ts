import { cancelAllOrdersHash, cancelOrderHashBytes } from '../../protocol/actionHashes.js';
import {
  checkOrderWordFields,
  placeOrderFieldsHashBytes,
  placeOrderFieldsOf,
} from '../../protocol/placeOrderFieldsHash.js';
import {
  cancelAllAcceptSchema,
  cancelOrderAcceptSchema,
  placeOrderAcceptSchema,
} from '../../venue/schemas/restAcceptedBodies.js';
import { invalidArgument, SimRefusal } from '../simRefusal.js';
import type { SimRuntime } from '../simRuntime.js';
import { runAuthorizedAction } from './authorizeAction.js';
import { fastCancelOrderBody, fastPlaceOrderBody } from './fastOrderBodies.js';
import { parseInput } from './parseInput.js';
import { ok, type SimRequest, type SimResponse, type SimRoute } from './simRoute.js';

function placeOrder(runtime: SimRuntime, request: SimRequest): SimResponse {
  // The schema decides (and words the refusal) whenever the fast check does not accept outright.
  const body = fastPlaceOrderBody(request.body) ?? parseInput(placeOrderAcceptSchema, request.body, 'body');
  const fields = placeOrderFieldsOf(body);
  // The order word's fields are range-checked (the schema checked the rest) before any key work is done.
  checkOrderWordFields(fields);
  // The closures are written inline: a named one (`const hash = ...`) gets a naming wrapper per
  // request under tsx, which `npm run sim` runs through. The hash is bytes, as the permit's struct takes it.
  const { result, stamp } = runAuthorizedAction(
    runtime,
    request,
    'PlaceOrder',
    body.permit,
    () => placeOrderFieldsHashBytes(fields, runtime.options.selectors),
    (who) => runtime.exchange.placeOrder(who.account, body, runtime.clock.now()),
  );
  return ok({
    order_id: result.order.order_id,
    tx_hash: stamp.txHash,
    block_number: stamp.blockNumber,
    sc_order_id: result.order.wide_order_id,
    filled_quantity: result.filled_quantity,
    filled_percent: result.filled_percent,
    message:
      result.order.status === 'ORDER_STATUS_OPEN'
        ? 'order placed'
        : `order ${result.order.status.slice(13).toLowerCase()}`,
  });
}

/**
 * The resting id of an order looked up by its hex id as sent: with or without 0x, any case.
 * The id as sent is tried first (what clients send), the other spellings only when it misses.
 */
function findRestingOrderId(runtime: SimRuntime, orderId: string): bigint | undefined {
  const exchange = runtime.exchange;
  const direct = exchange.restingOrderIdOf(orderId);
  if (direct !== undefined) return direct;
  const digits = orderId.replace(/^0x/i, '').toLowerCase();
  return exchange.restingOrderIdOf(`0x${digits}`) ?? exchange.restingOrderIdOf(digits);
}

/** The venue's order ids are 24 bytes; any other length is refused in its words (venue-wire.md §4.15). */
const ORDER_ID_BYTES = 24;

function checkOrderIdLength(orderId: string): void {
  const digits = orderId.replace(/^0x/i, '');
  if (digits.length !== ORDER_ID_BYTES * 2) {
    throw invalidArgument(`invalid order_id length: expected ${ORDER_ID_BYTES}, got ${Math.floor(digits.length / 2)}`);
  }
}

function cancelOrder(runtime: SimRuntime, request: SimRequest): SimResponse {
  const body = fastCancelOrderBody(request.body) ?? parseInput(cancelOrderAcceptSchema, request.body, 'body');
  checkOrderIdLength(body.order_id);
  // The hash commits to the resting id the venue looks up, not to the order_id string.
  const restingOrderId = findRestingOrderId(runtime, body.order_id);
  if (restingOrderId === undefined) throw new SimRefusal(400, 'NotFound', `order ${body.order_id} not found`);
  const { stamp } = runAuthorizedAction(
    runtime,
    request,
    'CancelOrder',
    body.permit,
    () => cancelOrderHashBytes(body.market_id, restingOrderId, runtime.options.selectors),
    (who) => runtime.exchange.cancelOrder(who.account, body.market_id, restingOrderId),
  );
  return ok({ success: true, tx_hash: stamp.txHash, block_number: stamp.blockNumber });
}

function cancelAll(runtime: SimRuntime, request: SimRequest): SimResponse {
  const body = parseInput(cancelAllAcceptSchema, request.body, 'body');
  const hash = () => cancelAllOrdersHash(body.market_id, runtime.options.selectors);
  const { result, stamp } = runAuthorizedAction(runtime, request, 'CancelAllOrders', body.permit, hash, (who) =>
    runtime.exchange.cancelAll(who.account, body.market_id),
  );
  return ok({
    success: true,
    tx_hash: stamp.txHash,
    block_number: stamp.blockNumber,
    cancelled_count: result.cancelled.length,
  });
}

export const ORDER_ROUTES: readonly SimRoute[] = [
  { method: 'POST', pattern: '/v1/orders/place', mutates: true, handle: placeOrder },
  { method: 'POST', pattern: '/v1/orders/cancel', mutates: true, handle: cancelOrder },
  { method: 'POST', pattern: '/v1/orders/cancel-all', mutates: true, handle: cancelAll },
];

import { actionReceiptResponseSchema, type ActionReceipt } from '../schemas/restActionReceipt.js';
import {
  cancelAllRequestSchema,
  cancelOrderRequestSchema,
  openOrdersResponseSchema,
  placeOrderRequestSchema,
  placeOrderResponseSchema,
  type CancelAllRequestWire,
  type CancelOrderRequestWire,
  type OpenOrders,
  type PlaceOrderRequestWire,
  type PlaceOrderResult,
} from '../schemas/restOrders.js';
import { openOrdersQuerySchema, type OpenOrdersQueryWire } from '../schemas/restQueries.js';
import { getData, postTradingAction } from './endpointCalls.js';
import type { RestCallOptions, RestTransport } from './restTransport.js';

/** Order reads and the three order actions (permit or JWT). */

export function getOpenOrders(
  transport: RestTransport,
  query: OpenOrdersQueryWire,
  options?: RestCallOptions,
): Promise<OpenOrders> {
  return getData(transport, '/v1/orders/open', openOrdersResponseSchema, options, {
    schema: openOrdersQuerySchema,
    values: query,
  });
}

export function placeOrder(
  transport: RestTransport,
  body: PlaceOrderRequestWire,
  options?: RestCallOptions,
): Promise<PlaceOrderResult> {
  return postTradingAction(
    transport,
    '/v1/orders/place',
    placeOrderRequestSchema,
    placeOrderResponseSchema,
    body,
    body.permit,
    options,
  );
}

export function cancelOrder(
  transport: RestTransport,
  body: CancelOrderRequestWire,
  options?: RestCallOptions,
): Promise<ActionReceipt> {
  return postTradingAction(
    transport,
    '/v1/orders/cancel',
    cancelOrderRequestSchema,
    actionReceiptResponseSchema,
    body,
    body.permit,
    options,
  );
}

export function cancelAllOrders(
  transport: RestTransport,
  body: CancelAllRequestWire,
  options?: RestCallOptions,
): Promise<ActionReceipt> {
  return postTradingAction(
    transport,
    '/v1/orders/cancel-all',
    cancelAllRequestSchema,
    actionReceiptResponseSchema,
    body,
    body.permit,
    options,
  );
}

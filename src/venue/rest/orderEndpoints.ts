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
import { checkedQuery } from './checkedQuery.js';
import type { RestCallOptions, RestTransport } from './restTransport.js';
import { checkTradingAuth } from './tradingAuth.js';

/** Order reads and the three order actions (permit or JWT). */

export async function getOpenOrders(transport: RestTransport, query: OpenOrdersQueryWire, options?: RestCallOptions): Promise<OpenOrders> {
  const endpoint = 'GET /v1/orders/open';
  const answer = await transport.request({
    method: 'GET',
    endpoint,
    path: '/v1/orders/open',
    query: checkedQuery(endpoint, openOrdersQuerySchema, query),
    responseSchema: openOrdersResponseSchema,
    options,
  });
  return answer.data;
}

export async function placeOrder(transport: RestTransport, body: PlaceOrderRequestWire, options?: RestCallOptions): Promise<PlaceOrderResult> {
  const endpoint = 'POST /v1/orders/place';
  checkTradingAuth(endpoint, body.permit, options);
  const answer = await transport.request({
    method: 'POST',
    endpoint,
    path: '/v1/orders/place',
    body,
    requestSchema: placeOrderRequestSchema,
    responseSchema: placeOrderResponseSchema,
    options,
  });
  return answer.data;
}

export async function cancelOrder(transport: RestTransport, body: CancelOrderRequestWire, options?: RestCallOptions): Promise<ActionReceipt> {
  const endpoint = 'POST /v1/orders/cancel';
  checkTradingAuth(endpoint, body.permit, options);
  const answer = await transport.request({
    method: 'POST',
    endpoint,
    path: '/v1/orders/cancel',
    body,
    requestSchema: cancelOrderRequestSchema,
    responseSchema: actionReceiptResponseSchema,
    options,
  });
  return answer.data;
}

export async function cancelAllOrders(transport: RestTransport, body: CancelAllRequestWire, options?: RestCallOptions): Promise<ActionReceipt> {
  const endpoint = 'POST /v1/orders/cancel-all';
  checkTradingAuth(endpoint, body.permit, options);
  const answer = await transport.request({
    method: 'POST',
    endpoint,
    path: '/v1/orders/cancel-all',
    body,
    requestSchema: cancelAllRequestSchema,
    responseSchema: actionReceiptResponseSchema,
    options,
  });
  return answer.data;
}

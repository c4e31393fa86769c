import {
  orderByIdResponseSchema,
  orderHistoryQuerySchema,
  orderHistoryResponseSchema,
  orderIdParamSchema,
  tradeHistoryQuerySchema,
  tradeHistoryResponseSchema,
  type OrderHistory,
  type OrderHistoryRecord,
  type OrderStatusName,
  type TradeHistory,
} from '../schemas/restHistory.js';
import { getData } from './endpointCalls.js';
import type { RestCallOptions, RestTransport } from './restTransport.js';
import { schemaIssues, VenueSchemaError } from './venueSchemaError.js';

/** The unsigned history reads: order history, one order by id, the account's fills. */

export interface OrderHistoryQuery {
  readonly account: string;
  /** 1-based; default 1. */
  readonly page?: number;
  /** 1..1000; the venue's default when absent. */
  readonly limit?: number;
  /** Newest first ("-created_at", the venue's default) or oldest first. */
  readonly sortedBy?: '-created_at' | 'created_at';
  /** Only these statuses (sent comma-separated). */
  readonly statuses?: readonly OrderStatusName[];
  /** Only these order ids, at most 100 (sent comma-separated). */
  readonly orderIds?: readonly string[];
}

export interface TradeHistoryQuery {
  readonly account: string;
  readonly page?: number;
  readonly limit?: number;
}

type WireQuery = Record<string, string | undefined>;

function pagingWire(query: { readonly page?: number; readonly limit?: number }): WireQuery {
  return {
    page: query.page === undefined ? undefined : String(query.page),
    limit: query.limit === undefined ? undefined : String(query.limit),
  };
}

export function getOrderHistory(
  transport: RestTransport,
  query: OrderHistoryQuery,
  options?: RestCallOptions,
): Promise<OrderHistory> {
  const values: WireQuery = {
    account: query.account,
    ...pagingWire(query),
    sorted_by: query.sortedBy,
    statuses: query.statuses === undefined ? undefined : query.statuses.join(','),
    order_ids: query.orderIds === undefined ? undefined : query.orderIds.join(','),
  };
  return getData(transport, '/v1/orders', orderHistoryResponseSchema, options, {
    schema: orderHistoryQuerySchema,
    values,
  });
}

/** One order by its hex id; an unknown id is a `VenueError` with HTTP 404 (NotFound). */
export async function getOrderById(
  transport: RestTransport,
  orderId: string,
  options?: RestCallOptions,
): Promise<OrderHistoryRecord> {
  const endpoint = 'GET /v1/orders/by-id/{order_id}';
  const checked = orderIdParamSchema.safeParse(orderId);
  if (!checked.success) {
    throw new VenueSchemaError({
      endpoint,
      direction: 'request',
      issues: schemaIssues(checked.error).map((issue) => ({ ...issue, path: 'order_id' })),
    });
  }
  const answer = await transport.request({
    method: 'GET',
    endpoint,
    path: `/v1/orders/by-id/${encodeURIComponent(orderId)}`,
    responseSchema: orderByIdResponseSchema,
    options,
  });
  return answer.data.order;
}

export function getTradeHistory(
  transport: RestTransport,
  query: TradeHistoryQuery,
  options?: RestCallOptions,
): Promise<TradeHistory> {
  const values: WireQuery = { account: query.account, ...pagingWire(query) };
  return getData(transport, '/v1/trade-history', tradeHistoryResponseSchema, options, {
    schema: tradeHistoryQuerySchema,
    values,
  });
}

import {
  HISTORY_DEFAULT_LIMIT,
  orderByIdPathSchema,
  orderHistoryQuerySchema,
  tradeHistoryQuerySchema,
  type OrderByIdWire,
  type OrderHistoryWire,
  type TradeHistoryWire,
} from '../../venue/schemas/restHistory.js';
import { SimRefusal } from '../simRefusal.js';
import type { SimRuntime } from '../simRuntime.js';
import { parseInput } from './parseInput.js';
import { ok, type SimRequest, type SimResponse, type SimRoute } from './simRoute.js';

/**
 * The history reads (venue-facts "History and other reads"), answered from the exchange's
 * per-account history, which is built from the very events the orders and fills channels send.
 * An account the simulator never saw has an empty history (not the 500 of the account reads:
 * nothing on chain is read). See docs/spec-gaps/venue.md ("History reads").
 */

function orderHistory(runtime: SimRuntime, request: SimRequest): SimResponse {
  const query = parseInput(orderHistoryQuerySchema, request.query, 'query');
  const page = query.page ?? 1;
  const limit = query.limit ?? HISTORY_DEFAULT_LIMIT;
  const result = runtime.exchange.history.orders(
    query.account,
    {
      ...(query.statuses === undefined ? {} : { statuses: new Set(query.statuses) }),
      ...(query.order_ids === undefined ? {} : { orderIds: new Set(query.order_ids) }),
      oldestFirst: query.sorted_by === 'created_at',
    },
    { page, limit },
  );
  return ok({ orders: [...result.items], page, has_next_page: result.hasNextPage } satisfies OrderHistoryWire);
}

function orderById(runtime: SimRuntime, request: SimRequest): SimResponse {
  const { order_id } = parseInput(orderByIdPathSchema, request.params, 'path');
  const order = runtime.exchange.history.order(order_id);
  if (order === undefined) {
    throw new SimRefusal(404, 'NotFound', `order ${order_id} not found`, [
      'the id may belong to another venue or simulator run, or be older than the retained history',
    ]);
  }
  return ok({ order } satisfies OrderByIdWire);
}

function tradeHistory(runtime: SimRuntime, request: SimRequest): SimResponse {
  const query = parseInput(tradeHistoryQuerySchema, request.query, 'query');
  const page = query.page ?? 1;
  const limit = query.limit ?? HISTORY_DEFAULT_LIMIT;
  const result = runtime.exchange.history.fills(query.account, { page, limit });
  return ok({
    trades: result.items.map((fill) => ({ ...fill })),
    page,
    has_next_page: result.hasNextPage,
    // Unfiltered: "0" (venue-wire.md §4.13).
    market_id: '0',
    wallet_address: query.account,
  } satisfies TradeHistoryWire);
}

export const HISTORY_ROUTES: readonly SimRoute[] = [
  { method: 'GET', pattern: '/v1/orders', mutates: false, handle: orderHistory },
  { method: 'GET', pattern: '/v1/orders/by-id/:order_id', mutates: false, handle: orderById },
  { method: 'GET', pattern: '/v1/trade-history', mutates: false, handle: tradeHistory },
];

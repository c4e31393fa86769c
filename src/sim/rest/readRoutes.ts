import { unixSeconds } from '../../core/clock.js';
import type { canonicalMarketsSchema, canonicalOpenOrdersSchema } from '../../venue/schemas/restCanonical.js';
import { accountPathSchema, openOrdersQuerySchema } from '../../venue/schemas/restQueries.js';
import type { z } from 'zod';
import { invalidArgument } from '../simRefusal.js';
import type { SimRuntime } from '../simRuntime.js';
import { checkKnownMarket } from './accountRoutes.js';
import { marketWire, openOrderWire } from './marketWire.js';
import { parseInput } from './parseInput.js';
import { ok, type SimRequest, type SimResponse, type SimRoute } from './simRoute.js';

const MAX_PAGE = 1000;

function nonceState(runtime: SimRuntime, request: SimRequest): SimResponse {
  const { account } = parseInput(accountPathSchema, request.params, 'path');
  const state = runtime.chainState.nonces.state(account);
  return ok({
    nonce_anchor: state.anchor.toString(),
    current_bitmap_index: state.currentIndex,
    bitmap: state.bitmap.toString(),
  });
}

function markets(runtime: SimRuntime): SimResponse {
  const quote = usdcAddress(runtime);
  const now = runtime.clock.now();
  return ok({
    markets: runtime.exchange.markets().map((record) => marketWire(record, quote, now)),
    cached_at: String(unixSeconds(runtime.clock)),
  } satisfies z.input<typeof canonicalMarketsSchema>);
}

function usdcAddress(runtime: SimRuntime): string {
  // The runtime always sets usdc; the config type keeps it optional because the venue may not.
  return runtime.systemConfigWire.addresses.usdc ?? runtime.operatorHub;
}

function pageNumber(text: string | undefined, field: string, fallback: number, max: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value > max)
    throw invalidArgument(`invalid request query: ${field}: expected an integer 0 to ${max}`);
  return value;
}

function openOrders(runtime: SimRuntime, request: SimRequest): SimResponse {
  const query = parseInput(openOrdersQuerySchema, request.query, 'query');
  // Without market_id: every market's open orders, and "0" at the top (venue-wire.md §4.12).
  const marketId = query.market_id === undefined ? undefined : checkKnownMarket(runtime, query.market_id);
  const start = pageNumber(query.start_index, 'start_index', 0, Number.MAX_SAFE_INTEGER);
  const limit = pageNumber(query.limit, 'limit', MAX_PAGE, MAX_PAGE);
  let orders = runtime.exchange.openOrders(query.account, marketId);
  if (query.order_ids !== undefined && query.order_ids !== '') {
    const wanted = new Set(query.order_ids.split(',').map((id) => id.trim().replace(/^0x/i, '').toLowerCase()));
    orders = orders.filter((order) => wanted.has(order.order_id.replace(/^0x/i, '').toLowerCase()));
  }
  return ok({
    orders: orders.slice(start, start + limit).map(openOrderWire),
    market_id: String(marketId ?? 0),
    account: query.account,
    total_orders: String(orders.length),
  } satisfies z.input<typeof canonicalOpenOrdersSchema>);
}

export const READ_ROUTES: readonly SimRoute[] = [
  { method: 'GET', pattern: '/v1/auth/eip712-domain', mutates: false, handle: (runtime) => ok(runtime.domainWire) },
  { method: 'GET', pattern: '/v1/system/config', mutates: false, handle: (runtime) => ok(runtime.systemConfigWire) },
  { method: 'GET', pattern: '/v1/nonce-state/:account', mutates: false, handle: nonceState },
  { method: 'GET', pattern: '/v1/markets', mutates: false, handle: markets },
  { method: 'GET', pattern: '/v1/orders/open', mutates: false, handle: openOrders },
];

import type { z } from 'zod';
import { addDecimals } from '../../core/decimal.js';
import {
  ORDERBOOK_MAX_LIMIT,
  marketIdPathSchema,
  marketTradeHistoryQuerySchema,
  orderbookQuerySchema,
} from '../../venue/schemas/restMarketData.js';
import { positionsQuerySchema } from '../../venue/schemas/restPortfolio.js';
import { accountPathSchema } from '../../venue/schemas/restQueries.js';
import type {
  canonicalFundingRateHistorySchema,
  canonicalMarketTradeHistorySchema,
  canonicalOrderbookSchema,
  canonicalPortfolioDetailsSchema,
  canonicalPositionsSchema,
} from '../../venue/schemas/restCanonical.js';
import type { SimRuntime } from '../simRuntime.js';
import { checkKnownMarket, checkOnChain } from './accountRoutes.js';
import { parseInput } from './parseInput.js';
import { isOpenPosition, portfolioPositionWire, positionRowWire } from './positionWire.js';
import { ok, type SimRequest, type SimResponse, type SimRoute } from './simRoute.js';

/**
 * The reads live clients make beyond the bot's own (venue-wire.md §2), answered from the same
 * exchange state the other routes and the channels read, so they agree with them.
 */

const DEFAULT_BOOK_LIMIT = 20;
const DEFAULT_PAGE_SIZE = 20;
const DEFAULT_TRADES_LIMIT = 100;

function orderbook(runtime: SimRuntime, request: SimRequest): SimResponse {
  const query = parseInput(orderbookQuerySchema, request.query, 'query');
  const marketId = checkKnownMarket(runtime, query.market_id);
  const limit = Math.min(Number(query.limit ?? DEFAULT_BOOK_LIMIT), ORDERBOOK_MAX_LIMIT);
  const whole = runtime.exchange.book(marketId);
  return ok({
    market_id: String(marketId),
    bids: whole.bids.slice(0, limit).map((level) => ({ ...level })),
    asks: whole.asks.slice(0, limit).map((level) => ({ ...level })),
    total_bids: String(whole.bids.length),
    total_asks: String(whole.asks.length),
  } satisfies z.input<typeof canonicalOrderbookSchema>);
}

function positions(runtime: SimRuntime, request: SimRequest): SimResponse {
  const query = parseInput(positionsQuerySchema, request.query, 'query');
  const marketId = query.market_id === undefined ? undefined : checkKnownMarket(runtime, query.market_id);
  checkOnChain(runtime, query.account);
  const page = Number(query.page ?? 1);
  const pageSize = Number(query.page_size ?? DEFAULT_PAGE_SIZE);
  const open = runtime.exchange
    .positions(query.account)
    .filter((record) => isOpenPosition(record) && (marketId === undefined || record.market_id === marketId));
  const start = (page - 1) * pageSize;
  return ok({
    positions: open.slice(start, start + pageSize).map(positionRowWire),
    total_count: open.length,
    page,
    page_size: pageSize,
    has_next_page: start + pageSize < open.length,
  } satisfies z.input<typeof canonicalPositionsSchema>);
}

function portfolioDetails(runtime: SimRuntime, request: SimRequest): SimResponse {
  const { account } = parseInput(accountPathSchema, request.query, 'query');
  checkOnChain(runtime, account);
  const names = new Map(runtime.exchange.markets().map((m) => [m.market_id, m.config.name]));
  const open = runtime.exchange.positions(account).filter(isOpenPosition);
  const balance = runtime.exchange.balance(account);
  let unrealized = '0';
  let realized = '0';
  for (const record of open) {
    unrealized = addDecimals(unrealized, record.unrealized_pnl);
    realized = addDecimals(realized, record.realized_pnl);
  }
  return ok({
    summary: {
      total_account_value: balance.equity,
      cross_margin_balance: balance.balance,
      free_collateral: balance.free_collateral,
      collateral_margin_balance: balance.balance,
      total_unrealized_pnl: unrealized,
      margin_usage: '0',
      account_leverage: '0',
      in_liquidation: false,
      risk_level: 'NORMAL',
      realized_pnl: realized,
      usdc_balance: balance.balance,
    },
    positions: open.map((record) => portfolioPositionWire(record, names.get(String(record.market_id)) ?? '')),
  } satisfies z.input<typeof canonicalPortfolioDetailsSchema>);
}

function marketTradeHistory(runtime: SimRuntime, request: SimRequest): SimResponse {
  const { id } = parseInput(marketIdPathSchema, request.params, 'path');
  const marketId = checkKnownMarket(runtime, id);
  const query = parseInput(marketTradeHistoryQuerySchema, request.query, 'query');
  const limit = Number(query.limit ?? DEFAULT_TRADES_LIMIT);
  return ok({
    trades: runtime.marketTrades.recent(marketId, limit).map((trade) => ({
      id: trade.id,
      time: trade.time,
      price: trade.price,
      size: trade.size,
      maker_side: trade.maker_side,
    })),
    market_id: String(marketId),
  } satisfies z.input<typeof canonicalMarketTradeHistorySchema>);
}

/** The simulator charges no funding, so there is no funding period to report. */
function fundingRateHistory(runtime: SimRuntime, request: SimRequest): SimResponse {
  const { id } = parseInput(marketIdPathSchema, request.params, 'path');
  checkKnownMarket(runtime, id);
  return ok({ records: [] } satisfies z.input<typeof canonicalFundingRateHistorySchema>);
}

export const LIVE_READ_ROUTES: readonly SimRoute[] = [
  { method: 'GET', pattern: '/v1/orderbook', mutates: false, handle: orderbook },
  { method: 'GET', pattern: '/v1/positions', mutates: false, handle: positions },
  { method: 'GET', pattern: '/v1/portfolio/details', mutates: false, handle: portfolioDetails },
  { method: 'GET', pattern: '/v1/markets/id/:id/trade-history', mutates: false, handle: marketTradeHistory },
  { method: 'GET', pattern: '/v1/markets/id/:id/funding-rate-history', mutates: false, handle: fundingRateHistory },
];

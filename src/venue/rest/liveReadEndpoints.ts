import {
  fundingRateHistoryResponseSchema,
  marketIdPathSchema,
  marketTradeHistoryQuerySchema,
  marketTradeHistoryResponseSchema,
  orderbookQuerySchema,
  orderbookResponseSchema,
  type FundingRateHistory,
  type MarketTradeHistory,
  type RestOrderbook,
} from '../schemas/restMarketData.js';
import {
  portfolioDetailsResponseSchema,
  positionsQuerySchema,
  positionsResponseSchema,
  type PortfolioDetails,
  type Positions,
} from '../schemas/restPortfolio.js';
import { accountPathSchema } from '../schemas/restQueries.js';
import { checkedQuery } from './checkedQuery.js';
import { getData } from './endpointCalls.js';
import type { RestCallOptions, RestTransport } from './restTransport.js';

/**
 * The reads live clients make that the bot's own loop does not need (venue-wire.md §2): the REST
 * order book, every position, the portfolio, a market's public trades and funding history.
 * `perpbot probe` walks them to prove the decoders against a venue.
 */

export interface OrderbookQuery {
  readonly market_id: number | string;
  /** Levels a side, 1 to 250. */
  readonly limit?: number;
}

export interface PositionsQuery {
  readonly account: string;
  /** 1-based. */
  readonly page?: number;
  readonly page_size?: number;
  readonly market_id?: number | string;
}

export interface MarketTradeHistoryQuery {
  readonly market_id: number | string;
  readonly limit?: number;
}

type WireQuery = Record<string, string | undefined>;

function text(value: number | string | undefined): string | undefined {
  return value === undefined ? undefined : String(value);
}

export function getOrderbook(
  transport: RestTransport,
  query: OrderbookQuery,
  options?: RestCallOptions,
): Promise<RestOrderbook> {
  const values: WireQuery = { market_id: String(query.market_id), limit: text(query.limit) };
  return getData(transport, '/v1/orderbook', orderbookResponseSchema, options, {
    schema: orderbookQuerySchema,
    values,
  });
}

export function getPositions(
  transport: RestTransport,
  query: PositionsQuery,
  options?: RestCallOptions,
): Promise<Positions> {
  const values: WireQuery = {
    account: query.account,
    page: text(query.page),
    page_size: text(query.page_size),
    market_id: text(query.market_id),
  };
  return getData(transport, '/v1/positions', positionsResponseSchema, options, {
    schema: positionsQuerySchema,
    values,
  });
}

export function getPortfolioDetails(
  transport: RestTransport,
  account: string,
  options?: RestCallOptions,
): Promise<PortfolioDetails> {
  return getData(transport, '/v1/portfolio/details', portfolioDetailsResponseSchema, options, {
    schema: accountPathSchema,
    values: { account },
  });
}

/** The `{id}` path segment, checked before sending. */
function marketPath(endpoint: string, marketId: number | string, tail: string): string {
  const { id } = checkedQuery(endpoint, marketIdPathSchema, { id: String(marketId) });
  return `/v1/markets/id/${id}/${tail}`;
}

export async function getMarketTradeHistory(
  transport: RestTransport,
  query: MarketTradeHistoryQuery,
  options?: RestCallOptions,
): Promise<MarketTradeHistory> {
  const endpoint = 'GET /v1/markets/id/{id}/trade-history';
  const values: WireQuery = { limit: text(query.limit) };
  const answer = await transport.request({
    method: 'GET',
    endpoint,
    path: marketPath(endpoint, query.market_id, 'trade-history'),
    query: checkedQuery(endpoint, marketTradeHistoryQuerySchema, values),
    responseSchema: marketTradeHistoryResponseSchema,
    options,
  });
  return answer.data;
}

export async function getFundingRateHistory(
  transport: RestTransport,
  query: { readonly market_id: number | string },
  options?: RestCallOptions,
): Promise<FundingRateHistory> {
  const endpoint = 'GET /v1/markets/id/{id}/funding-rate-history';
  const answer = await transport.request({
    method: 'GET',
    endpoint,
    path: marketPath(endpoint, query.market_id, 'funding-rate-history'),
    responseSchema: fundingRateHistoryResponseSchema,
    options,
  });
  return answer.data;
}

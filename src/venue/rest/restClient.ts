import type { ActionReceipt } from '../schemas/restActionReceipt.js';
import type {
  CrossMarginBalance,
  DepositRequestWire,
  DepositResult,
  IsolatedMarginRequestWire,
  LeverageRequestWire,
  MarginModeRequestWire,
  Position,
} from '../schemas/restAccount.js';
import type {
  ApproveSingleRequestWire,
  Eip712Domain,
  LoginNonce,
  LoginRequestWire,
  RefreshRequestWire,
  RegisterSignerRequestWire,
  RegisterSignerResult,
  RevokeSignerRequestWire,
  RevokeSignerResult,
  SessionKeyStatus,
  TokenPair,
} from '../schemas/restAuth.js';
import type { OrderHistory, OrderHistoryRecord, TradeHistory } from '../schemas/restHistory.js';
import type { FundingRateHistory, MarketTradeHistory, RestOrderbook } from '../schemas/restMarketData.js';
import type { Markets } from '../schemas/restMarkets.js';
import type {
  CancelAllRequestWire,
  CancelOrderRequestWire,
  OpenOrders,
  PlaceOrderRequestWire,
  PlaceOrderResult,
} from '../schemas/restOrders.js';
import type { OpenOrdersQueryWire, PositionQueryWire, SessionKeyStatusQueryWire } from '../schemas/restQueries.js';
import type { PortfolioDetails, Positions } from '../schemas/restPortfolio.js';
import type { NonceState, SystemConfig } from '../schemas/restSystem.js';
import type {
  CancelAllTpslRequestWire,
  CancelTpslRequestWire,
  CancelTpslResult,
  PlaceTpslRequestWire,
  PlaceTpslResult,
  TpslOrderPage,
} from '../schemas/restTpsl.js';
import {
  depositFaucet,
  getCrossMarginBalance,
  getPosition,
  updateIsolatedMargin,
  updateLeverage,
  updateMarginMode,
} from './accountEndpoints.js';
import {
  getOrderById,
  getOrderHistory,
  getTradeHistory,
  type OrderHistoryQuery,
  type TradeHistoryQuery,
} from './historyEndpoints.js';
import {
  approveSingle,
  getLoginNonce,
  getSessionKeyStatus,
  login,
  refreshTokens,
  registerSigner,
  revokeSigner,
} from './authEndpoints.js';
import {
  getFundingRateHistory,
  getMarketTradeHistory,
  getOrderbook,
  getPortfolioDetails,
  getPositions,
  type MarketTradeHistoryQuery,
  type OrderbookQuery,
  type PositionsQuery,
} from './liveReadEndpoints.js';
import { cancelAllOrders, cancelOrder, getOpenOrders, placeOrder } from './orderEndpoints.js';
import { createRestTransport, type RestCallOptions, type RestClientOptions } from './restTransport.js';
import { getEip712Domain, getMarkets, getNonceState, getSystemConfig } from './systemEndpoints.js';
import {
  cancelAllTpslOrders,
  cancelTpslOrder,
  getTpslOrders,
  placeTpslOrder,
  type TpslOrdersQuery,
} from './tpslEndpoints.js';

/**
 * One method per venue REST endpoint. Each returns the parsed `data` payload and throws
 * `VenueError` (non-2xx), `VenueTransportError` (no answer) or `VenueSchemaError` (unreadable
 * body, or a request refused before sending).
 */
export interface RestClient {
  eip712Domain(options?: RestCallOptions): Promise<Eip712Domain>;
  systemConfig(options?: RestCallOptions): Promise<SystemConfig>;
  nonceState(account: string, options?: RestCallOptions): Promise<NonceState>;
  markets(options?: RestCallOptions): Promise<Markets>;
  openOrders(query: OpenOrdersQueryWire, options?: RestCallOptions): Promise<OpenOrders>;
  sessionKeyStatus(query: SessionKeyStatusQueryWire, options?: RestCallOptions): Promise<SessionKeyStatus>;
  /** GET /v1/auth/nonce; `account` is optional on the venue (sent when given). */
  loginNonce(account?: string, options?: RestCallOptions): Promise<LoginNonce>;
  deposit(body: DepositRequestWire, options?: RestCallOptions): Promise<DepositResult>;
  registerSigner(body: RegisterSignerRequestWire, options?: RestCallOptions): Promise<RegisterSignerResult>;
  revokeSigner(body: RevokeSignerRequestWire, options?: RestCallOptions): Promise<RevokeSignerResult>;
  placeOrder(body: PlaceOrderRequestWire, options?: RestCallOptions): Promise<PlaceOrderResult>;
  cancelOrder(body: CancelOrderRequestWire, options?: RestCallOptions): Promise<ActionReceipt>;
  cancelAll(body: CancelAllRequestWire, options?: RestCallOptions): Promise<ActionReceipt>;
  updateLeverage(body: LeverageRequestWire, options?: RestCallOptions): Promise<ActionReceipt>;
  updateMarginMode(body: MarginModeRequestWire, options?: RestCallOptions): Promise<ActionReceipt>;
  updateIsolatedMargin(body: IsolatedMarginRequestWire, options?: RestCallOptions): Promise<ActionReceipt>;
  login(body: LoginRequestWire, options?: RestCallOptions): Promise<TokenPair>;
  refresh(body: RefreshRequestWire, options?: RestCallOptions): Promise<TokenPair>;
  approveSingle(body: ApproveSingleRequestWire, options?: RestCallOptions): Promise<ActionReceipt>;
  position(query: PositionQueryWire, options?: RestCallOptions): Promise<Position>;
  crossMarginBalance(account: string, options?: RestCallOptions): Promise<CrossMarginBalance>;
  /** GET /v1/orders: one page of the account's orders (see historyPages.ts to walk them all). */
  orderHistory(query: OrderHistoryQuery, options?: RestCallOptions): Promise<OrderHistory>;
  /** GET /v1/orders/by-id/{order_id}; an unknown id is a VenueError with HTTP 404. */
  orderById(orderId: string, options?: RestCallOptions): Promise<OrderHistoryRecord>;
  /** GET /v1/trade-history: one page of the account's fills, newest first. */
  tradeHistory(query: TradeHistoryQuery, options?: RestCallOptions): Promise<TradeHistory>;
  /** GET /v1/orderbook: the aggregated book, `limit` levels a side (1-250). */
  orderbook(query: OrderbookQuery, options?: RestCallOptions): Promise<RestOrderbook>;
  /** GET /v1/positions: one page of the account's positions in every market (or one). */
  positions(query: PositionsQuery, options?: RestCallOptions): Promise<Positions>;
  /** GET /v1/portfolio/details: the account summary and its positions. */
  portfolioDetails(account: string, options?: RestCallOptions): Promise<PortfolioDetails>;
  /** GET /v1/markets/id/{id}/trade-history: a market's public trades, newest first. */
  marketTradeHistory(query: MarketTradeHistoryQuery, options?: RestCallOptions): Promise<MarketTradeHistory>;
  /** GET /v1/markets/id/{id}/funding-rate-history. */
  fundingRateHistory(
    query: { readonly market_id: number | string },
    options?: RestCallOptions,
  ): Promise<FundingRateHistory>;
  /** POST /v1/orders/tpsl: a TP/SL the venue keeps and executes (body from `signedPlaceTpslBody`). */
  placeTpslOrder(body: PlaceTpslRequestWire, options?: RestCallOptions): Promise<PlaceTpslResult>;
  /** POST /v1/orders/tpsl/cancel (body from `signedCancelTpslBody`). */
  cancelTpslOrder(body: CancelTpslRequestWire, options?: RestCallOptions): Promise<CancelTpslResult>;
  /** POST /v1/orders/tpsl/cancel-all: the market's ACCEPTED orders (body from `signedCancelAllTpslBody`). */
  cancelAllTpslOrders(body: CancelAllTpslRequestWire, options?: RestCallOptions): Promise<CancelTpslResult>;
  /** GET /v1/orders/tpsl: one page, both stop types and every status unless asked (see tpslPages.ts for all). */
  tpslOrders(query: TpslOrdersQuery, options?: RestCallOptions): Promise<TpslOrderPage>;
}

export function createRestClient(options: RestClientOptions): RestClient {
  const t = createRestTransport(options);
  return {
    eip712Domain: (o) => getEip712Domain(t, o),
    systemConfig: (o) => getSystemConfig(t, o),
    nonceState: (account, o) => getNonceState(t, account, o),
    markets: (o) => getMarkets(t, o),
    openOrders: (query, o) => getOpenOrders(t, query, o),
    sessionKeyStatus: (query, o) => getSessionKeyStatus(t, query, o),
    loginNonce: (account, o) => getLoginNonce(t, account, o),
    deposit: (body, o) => depositFaucet(t, body, o),
    registerSigner: (body, o) => registerSigner(t, body, o),
    revokeSigner: (body, o) => revokeSigner(t, body, o),
    placeOrder: (body, o) => placeOrder(t, body, o),
    cancelOrder: (body, o) => cancelOrder(t, body, o),
    cancelAll: (body, o) => cancelAllOrders(t, body, o),
    updateLeverage: (body, o) => updateLeverage(t, body, o),
    updateMarginMode: (body, o) => updateMarginMode(t, body, o),
    updateIsolatedMargin: (body, o) => updateIsolatedMargin(t, body, o),
    login: (body, o) => login(t, body, o),
    refresh: (body, o) => refreshTokens(t, body, o),
    approveSingle: (body, o) => approveSingle(t, body, o),
    position: (query, o) => getPosition(t, query, o),
    crossMarginBalance: (account, o) => getCrossMarginBalance(t, account, o),
    orderHistory: (query, o) => getOrderHistory(t, query, o),
    orderById: (orderId, o) => getOrderById(t, orderId, o),
    tradeHistory: (query, o) => getTradeHistory(t, query, o),
    orderbook: (query, o) => getOrderbook(t, query, o),
    positions: (query, o) => getPositions(t, query, o),
    portfolioDetails: (account, o) => getPortfolioDetails(t, account, o),
    marketTradeHistory: (query, o) => getMarketTradeHistory(t, query, o),
    fundingRateHistory: (query, o) => getFundingRateHistory(t, query, o),
    placeTpslOrder: (body, o) => placeTpslOrder(t, body, o),
    cancelTpslOrder: (body, o) => cancelTpslOrder(t, body, o),
    cancelAllTpslOrders: (body, o) => cancelAllTpslOrders(t, body, o),
    tpslOrders: (query, o) => getTpslOrders(t, query, o),
  };
}

export type { RestCallOptions, RestClientOptions } from './restTransport.js';
export type { OrderHistoryQuery, TradeHistoryQuery } from './historyEndpoints.js';
export type { MarketTradeHistoryQuery, OrderbookQuery, PositionsQuery } from './liveReadEndpoints.js';
export type { TpslOrdersQuery } from './tpslEndpoints.js';

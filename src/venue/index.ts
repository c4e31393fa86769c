/** The venue client: the only code that speaks HTTP and WebSocket to a venue. */
export { createRestClient, type RestCallOptions, type RestClient, type RestClientOptions } from './rest/restClient.js';
export { VenueInfoCache } from './rest/venueInfoCache.js';
export { type OrderHistoryQuery, type TradeHistoryQuery } from './rest/historyEndpoints.js';
export { collectAll, orderHistoryRecords, tradeHistoryRecords, type PageWalkOptions } from './rest/historyPages.js';
export {
  readAllOpenOrders,
  type OpenOrdersSnapshot,
  type OpenOrdersSnapshotOptions,
  type OpenOrdersSnapshotQuery,
} from './rest/readAllOpenOrders.js';
export { TokenBucket } from './rest/tokenBucket.js';
export { SlidingWindowLimiter, venueRestLimiter, type RequestLimiter } from './rest/slidingWindowLimiter.js';
export { VenueSchemaError, type SchemaIssue } from './rest/venueSchemaError.js';
export {
  faultVerdict,
  isTransientFailure,
  requestFailureOf,
  requestKindOf,
  verdictOf,
  type FaultVerdict,
  type RequestFailure,
  type RequestKind,
} from './rest/requestFaults.js';
export { DEFAULT_READ_DEADLINE_MS, type RestRetryEvent } from './rest/restTransport.js';
export { VenueError, parseVenueErrorText, type ParsedVenueErrorText, type VenueErrorKind } from './venueError.js';
export { VenueTransportError, hasNoDefiniteAnswer } from './venueTransportError.js';
export {
  VenueWsClient,
  SignerNotActiveError,
  VenueWsError,
  type ChannelOptions,
  type ConnectionState,
  type ConnectionStatus,
  type VenueWsClientOptions,
  type WsAuthenticator,
} from './ws/index.js';
export { wsAuthenticatorFromRest, knownMarketIdsFromRest, WS_AUTH_MESSAGE } from './ws/wsAuthenticatorFromRest.js';
export { LocalOrderBook, OrderBookFeed, type OrderBookView } from './orderbook/index.js';

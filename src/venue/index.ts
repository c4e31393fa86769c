/** The venue client: the only code that speaks HTTP and WebSocket to a venue. */
export { createRestClient, type RestCallOptions, type RestClient, type RestClientOptions } from './rest/restClient.js';
export { VenueInfoCache } from './rest/venueInfoCache.js';
export { TokenBucket } from './rest/tokenBucket.js';
export { SlidingWindowLimiter, venueRestLimiter, type RequestLimiter } from './rest/slidingWindowLimiter.js';
export { VenueSchemaError, type SchemaIssue } from './rest/venueSchemaError.js';
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

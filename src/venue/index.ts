/** The venue client: the only code that speaks HTTP and WebSocket to a venue. */
export { createRestClient, type RestClient } from './rest/restClient.js';
export { TpslClient, type TpslClientOptions, type TpslOrderRequest } from './rest/tpslClient.js';
export { VenueError, type VenueErrorKind } from './venueError.js';
export { VenueTransportError } from './venueTransportError.js';
export { VenueWsClient } from './ws/index.js';
export { OrderBookFeed } from './orderbook/index.js';

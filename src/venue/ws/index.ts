export { VenueWsClient, type ChannelOptions, type VenueWsClientOptions, type WsClientMetrics } from './venueWsClient.js';
export type { ConnectionState, ConnectionStatus } from './connectionState.js';
export { AUTH_RETRIES, AUTH_RETRY_DELAY_MS, authenticateWs, type Hex, type WsAuthenticator } from './authenticateWs.js';
export { SignerNotActiveError, SIGNER_STATUS_ACTIVE, VenueWsError } from './venueWsError.js';
export { silentWsLogger, type WsLogger } from './wsLogger.js';
export { decodeServerFrame, type DecodedServerFrame } from './decodeServerFrame.js';
export { fastDecodeOracle } from './fastDecodeOracle.js';
export { fastDecodeOrderbook } from './fastDecodeOrderbook.js';
export { knownMarketIdsFromRest, WS_AUTH_MESSAGE, wsAuthenticatorFromRest } from './wsAuthenticatorFromRest.js';

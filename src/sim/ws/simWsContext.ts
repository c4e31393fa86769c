import type { Exchange } from '../exchange/exchange.js';
import type { SimChain, SimContext } from '../simContext.js';

/** The exchange reads the WebSocket server makes (snapshots, books, oracle prices). */
export type SimWsExchange = Pick<
  Exchange,
  'markets' | 'bookChanges' | 'openOrders' | 'positions' | 'balance' | 'oraclePrices'
>;

/** The chain checks behind auth_v2 and the JWT `auth` method. */
export type SimWsChain = Pick<SimChain, 'signerStatus' | 'consumeLoginNonce' | 'verifyJwt'>;

/**
 * The part of `SimContext` the WebSocket server uses. Narrower than the whole context so the
 * server cannot reach the REST side or the controls, and so unit tests can build just this.
 */
export type SimWsContext = Pick<SimContext, 'clock' | 'signingContext' | 'events'> & {
  readonly chain: SimWsChain;
  readonly exchange: SimWsExchange;
};

import type { RestCallOptions, RestClient } from '../../venue/rest/restClient.js';

export type ReconcileReads = Pick<
  RestClient,
  'openOrders' | 'position' | 'nonceState' | 'markets' | 'crossMarginBalance' | 'orderHistory' | 'tradeHistory'
>;

/**
 * The reads reconciliation makes, each given `signal`: reconcileWithVenue takes no signal of its
 * own, and a step run by `untilDeadline` must stop when its deadline passes.
 */
export function readsWithSignal(rest: ReconcileReads, signal: AbortSignal): ReconcileReads {
  const withSignal = (options?: RestCallOptions): RestCallOptions => ({ ...options, signal });
  return {
    openOrders: (query, options) => rest.openOrders(query, withSignal(options)),
    position: (query, options) => rest.position(query, withSignal(options)),
    nonceState: (account, options) => rest.nonceState(account, withSignal(options)),
    markets: (options) => rest.markets(withSignal(options)),
    crossMarginBalance: (account, options) => rest.crossMarginBalance(account, withSignal(options)),
    // The history reads, so `perpbot reconcile` reads what happened instead of inferring it.
    orderHistory: (query, options) => rest.orderHistory(query, withSignal(options)),
    tradeHistory: (query, options) => rest.tradeHistory(query, withSignal(options)),
  };
}

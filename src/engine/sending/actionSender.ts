import type { Logger } from '../../core/logger.js';
import type { RestCallOptions, RestClient } from '../../venue/rest/restClient.js';
import type { SignedRequest } from '../signing/signedRequest.js';

/** What the venue (or the dry-run sender) answered to one signed request. */
export interface SendReceipt {
  /** Placement: the venue's hex order id. */
  readonly orderId?: string;
  readonly txHash?: string;
  readonly dryRun?: true;
}

/**
 * Where a signed request goes. The engine never branches on "dry run": the runtime gives it the
 * venue sender or the dry-run sender, and everything up to signing is identical.
 */
export interface ActionSender {
  send(request: SignedRequest, options?: RestCallOptions): Promise<SendReceipt>;
  /**
   * JWT mode: drops the token the venue refused (Unauthenticated), so the next send logs in
   * again. Absent: the sender cannot renew its authorisation (permits, dry run).
   */
  reauthenticate?(): void;
}

/** Where a JWT sender gets its token; a `JwtSession` is one. */
export interface BearerSource {
  /** A valid access token, logging in or refreshing first when needed. */
  bearer(): Promise<string>;
  /** Drops the token: the next `bearer()` logs in again. */
  invalidate(): void;
}

/** The REST client's six trading actions, one per endpoint of a signed request. */
export type ActionEndpoints = Pick<
  RestClient,
  'placeOrder' | 'cancelOrder' | 'cancelAll' | 'updateLeverage' | 'updateMarginMode' | 'updateIsolatedMargin'
>;

/** Sends to the venue's REST endpoints. `jwt` supplies the Bearer token in JWT mode. */
export function venueSender(rest: ActionEndpoints, jwt?: BearerSource): ActionSender {
  return {
    ...(jwt === undefined ? {} : { reauthenticate: () => jwt.invalidate() }),
    async send(request, options = {}) {
      const callOptions = jwt === undefined ? options : { ...options, bearer: await jwt.bearer() };
      // The endpoint narrows the body to that endpoint's request type.
      switch (request.endpoint) {
        case 'placeOrder': {
          const placed = await rest.placeOrder(request.body, callOptions);
          return { orderId: placed.order_id, ...(placed.tx_hash === undefined ? {} : { txHash: placed.tx_hash }) };
        }
        case 'cancelOrder':
          return receipt(await rest.cancelOrder(request.body, callOptions));
        case 'cancelAllOrders':
          return receipt(await rest.cancelAll(request.body, callOptions));
        case 'updateLeverage':
          return receipt(await rest.updateLeverage(request.body, callOptions));
        case 'updateMarginMode':
          return receipt(await rest.updateMarginMode(request.body, callOptions));
        case 'updateIsolatedMargin':
          return receipt(await rest.updateIsolatedMargin(request.body, callOptions));
      }
    },
  };
}

function receipt(answer: { tx_hash?: string | undefined }): SendReceipt {
  return answer.tx_hash === undefined || answer.tx_hash === '' ? {} : { txHash: answer.tx_hash };
}

/** Logs the request it would have sent (the permit signature is redacted by the logger). */
export function dryRunSender(log: Pick<Logger, 'info'>): ActionSender {
  return {
    // Nothing to wait for: a settled promise, as the interface asks, without an async function.
    send(request) {
      log.info(
        { endpoint: request.endpoint, body: request.body, actionHash: request.actionHash },
        'dry run: request not sent',
      );
      return Promise.resolve({ dryRun: true });
    },
  };
}

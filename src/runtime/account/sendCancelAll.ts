import type { Address } from '../../core/address.js';
import { unixSeconds, type Clock } from '../../core/clock.js';
import { checkRange, checkUint } from '../../core/integerRange.js';
import type { OneShotNonces } from '../../engine/nonces/oneShotNonces.js';
import { buildSignedRequest } from '../../engine/signing/signedRequest.js';
import type { SignerLike } from '../../protocol/digestSigner.js';
import type { SelectorTable } from '../../protocol/selectors.js';
import type { SigningContext } from '../../protocol/signingContext.js';
import type { RestClient } from '../../venue/rest/restClient.js';

export interface CancelAllSent {
  readonly marketId: number;
  readonly txHash: string | undefined;
  readonly nonce: { readonly anchor: bigint; readonly bit: number };
}

/**
 * One permit-signed cancel-all for one market: a pair from the engine's nonces (reserved in the
 * journal when there is one), the permit signed by the session key, sent to POST
 * /v1/orders/cancel-all; the pair's fate (landed, refused, or unknown when no definite answer
 * came) is reported back by `OneShotNonces.use`.
 */
export async function sendCancelAll(options: {
  readonly rest: Pick<RestClient, 'cancelAll'>;
  readonly context: SigningContext;
  readonly nonces: OneShotNonces;
  readonly account: Address;
  readonly signer: SignerLike;
  readonly marketId: number;
  readonly selectors: SelectorTable;
  readonly clock: Clock;
  readonly deadlineSeconds: number;
  readonly signal?: AbortSignal;
}): Promise<CancelAllSent> {
  const { signal } = options;
  // uint16, and 1 or more: whether 0 means "all markets" is disputed (venue-wire.md §2, cancel-all).
  const marketId = Number(checkRange(options.marketId, 1n, 0xffffn, 'market_id'));
  return options.nonces.use(`cancel-all:${marketId}`, async (nonce) => {
    const deadline = Number(checkUint(unixSeconds(options.clock) + options.deadlineSeconds, 32, 'permit deadline'));
    const request = await buildSignedRequest(
      { action: 'cancelAllOrders', market_id: marketId },
      { mode: 'permit', context: options.context, signer: options.signer, account: options.account, nonce, deadline },
      options.selectors,
    );
    // A cancel-all action gives a cancel-all request: its body is the endpoint's, range-checked when built.
    const receipt = await options.rest.cancelAll(request.body, signal === undefined ? undefined : { signal });
    return { marketId, txHash: receipt.tx_hash === '' ? undefined : receipt.tx_hash, nonce };
  });
}

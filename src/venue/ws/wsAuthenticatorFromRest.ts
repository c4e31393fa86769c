import type { Address } from '../../core/address.js';
import type { SignerLike } from '../../protocol/digestSigner.js';
import type { SigningContext } from '../../protocol/signingContext.js';
import { signTypedStruct } from '../../protocol/typedSignatures.js';
import type { RestClient } from '../rest/restClient.js';
import type { WsAuthenticator } from './authenticateWs.js';

/** The message a working client signs (venue-facts); any fixed string is accepted. */
export const WS_AUTH_MESSAGE = 'WebSocket Authentication';

/**
 * The usual authenticator: server nonce and signer status over REST, RegisterV2 signed by the
 * session key under the venue's domain. No expiration is sent (venue-facts: a working client
 * sends none).
 */
export function wsAuthenticatorFromRest(deps: {
  readonly rest: Pick<RestClient, 'loginNonce' | 'sessionKeyStatus'>;
  readonly context: SigningContext;
  readonly account: Address;
  /** The session key, never the account key. */
  readonly signer: SignerLike;
  readonly message?: string;
}): WsAuthenticator {
  const message = deps.message ?? WS_AUTH_MESSAGE;
  const signerAddress = deps.signer.address;
  return {
    account: deps.account,
    signer: signerAddress,
    fetchNonce: async () => (await deps.rest.loginNonce(deps.account)).nonce,
    sign: async (nonce) => ({
      message,
      signature: await signTypedStruct(deps.context, deps.signer, 'RegisterV2', {
        signer: signerAddress,
        message,
        nonce: BigInt(nonce),
      }),
    }),
    signerStatus: async () =>
      (await deps.rest.sessionKeyStatus({ account: deps.account, signer: signerAddress })).status,
  };
}

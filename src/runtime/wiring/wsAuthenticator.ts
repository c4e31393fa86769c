import type { SignerLike } from '../../protocol/digestSigner.js';
import type { SigningContext } from '../../protocol/signingContext.js';
import { signTypedStruct } from '../../protocol/typedSignatures.js';
import type { RestClient } from '../../venue/rest/restClient.js';
import type { Hex, WsAuthenticator } from '../../venue/ws/authenticateWs.js';

/** venue-facts: a working client signs RegisterV2 with this message and sends no expiration. */
export const WS_AUTH_MESSAGE = 'WebSocket Authentication';

/** auth_v2 for the WebSocket client: server nonce over REST, RegisterV2 signed by the session key. */
export function wsAuthenticator(options: {
  readonly rest: RestClient;
  readonly account: `0x${string}`;
  readonly signer: SignerLike & { readonly address: `0x${string}` };
  readonly context: () => SigningContext;
}): WsAuthenticator {
  const { rest, account, signer } = options;
  return {
    account,
    signer: signer.address,
    fetchNonce: async () => (await rest.loginNonce(account)).nonce as Hex,
    sign: async (nonce) => ({
      message: WS_AUTH_MESSAGE,
      signature: await signTypedStruct(options.context(), signer, 'RegisterV2', { signer: signer.address, message: WS_AUTH_MESSAGE, nonce: BigInt(nonce) }),
    }),
    signerStatus: async () => (await rest.sessionKeyStatus({ account, signer: signer.address })).status,
  };
}

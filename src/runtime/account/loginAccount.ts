import type { Address } from '../../core/address.js';
import { unixSeconds, type Clock } from '../../core/clock.js';
import { checkUint } from '../../core/integerRange.js';
import type { SignerLike } from '../../protocol/digestSigner.js';
import type { SigningContext } from '../../protocol/signingContext.js';
import { signTypedStruct } from '../../protocol/typedSignatures.js';
import type { RestClient } from '../../venue/rest/restClient.js';
import type { TokenPair } from '../../venue/schemas/restAuth.js';

/** The login nonce lives 5 minutes (spec "Limits"); the signature need not outlive it. */
export const LOGIN_DEADLINE_SECONDS = 300;

/**
 * JWT login (spec "JWT path"): a server nonce from GET /v1/auth/nonce, Login signed by the
 * account key, POST /v1/auth/login. The tokens are returned to the caller and never logged.
 */
export async function loginAccount(options: {
  readonly rest: Pick<RestClient, 'loginNonce' | 'login'>;
  readonly context: SigningContext;
  readonly account: SignerLike & { readonly address: Address };
  readonly clock: Clock;
  readonly signal?: AbortSignal;
}): Promise<TokenPair> {
  const { rest, context, account, signal } = options;
  const call = signal === undefined ? undefined : { signal };
  const { nonce } = await rest.loginNonce(account.address, call);
  const deadline = Number(checkUint(unixSeconds(options.clock) + LOGIN_DEADLINE_SECONDS, 32, 'login deadline'));
  const signature = await signTypedStruct(context, account, 'Login', {
    account: account.address,
    nonce: BigInt(nonce),
    deadline,
  });
  return rest.login({ account: account.address, nonce, deadline, signature }, call);
}

import type { Hex } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { loginNonceResponseSchema, tokenPairResponseSchema } from '../../../src/venue/schemas/restSchemas.js';
import type { SimRestHarness } from '../simRestHarness.js';

/**
 * Login and WebSocket auth signed by viem alone, over the domain the simulator serves at
 * GET /v1/auth/eip712-domain (read by `SimRestHarness.start`) and nonces from GET /v1/auth/nonce,
 * so a fault shared by the project's signer and the simulator's verifier cannot hide.
 */

/** The message a working client signs into RegisterV2 (venue-facts). */
export const WS_AUTH_MESSAGE = 'WebSocket Authentication';

/** A fresh single-use nonce from GET /v1/auth/nonce (top-level or `data.nonce`). */
export async function fetchAuthNonce(harness: SimRestHarness, account: Hex): Promise<string> {
  return loginNonceResponseSchema.parse((await harness.get(`/v1/auth/nonce?account=${account}`)).json).nonce;
}

/** The POST /v1/auth/login body: Login(account, nonce, deadline) signed by the account key. */
export async function loginBody(
  harness: SimRestHarness,
  key: PrivateKeyAccount,
  nonce: string,
  deadline: number,
): Promise<Record<string, unknown>> {
  const signature = await key.signTypedData({
    domain: harness.domain,
    primaryType: 'Login',
    types: {
      Login: [
        { name: 'account', type: 'address' },
        { name: 'nonce', type: 'uint256' },
        { name: 'deadline', type: 'uint32' },
      ],
    },
    message: { account: key.address, nonce: BigInt(nonce.startsWith('0x') ? nonce : `0x${nonce}`), deadline },
  });
  return { account: key.address, nonce, deadline, signature };
}

/** Logs in over REST and returns the token pair (`access_token`, `refresh_token`, `expires_in`). */
export async function login(
  harness: SimRestHarness,
  key: PrivateKeyAccount,
  nowSeconds = Math.floor(Date.now() / 1000),
) {
  const nonce = await fetchAuthNonce(harness, key.address);
  const answer = await harness.post('/v1/auth/login', await loginBody(harness, key, nonce, nowSeconds + 60));
  return tokenPairResponseSchema.parse(answer.json).data;
}

export interface AuthV2Options {
  /** Defaults to a fresh nonce from GET /v1/auth/nonce. */
  readonly nonce?: string;
  /** Defaults to the session key; a test puts another key here on purpose. */
  readonly signedBy?: PrivateKeyAccount;
}

/** The auth_v2 frame a working client sends: RegisterV2 by the session key, nonce as hex, no expiration. */
export async function authV2Frame(
  harness: SimRestHarness,
  who: { readonly account: { readonly address: Hex }; readonly signer: PrivateKeyAccount },
  options: AuthV2Options = {},
): Promise<{
  method: 'auth_v2';
  params: { account: Hex; signer: Hex; message: string; nonce: string; signature: Hex };
}> {
  const nonce = options.nonce ?? (await fetchAuthNonce(harness, who.account.address));
  const signature = await (options.signedBy ?? who.signer).signTypedData({
    domain: harness.domain,
    primaryType: 'RegisterV2',
    types: {
      RegisterV2: [
        { name: 'signer', type: 'address' },
        { name: 'message', type: 'string' },
        { name: 'nonce', type: 'uint256' },
      ],
    },
    message: { signer: who.signer.address, message: WS_AUTH_MESSAGE, nonce: BigInt(nonce) },
  });
  return {
    method: 'auth_v2',
    params: { account: who.account.address, signer: who.signer.address, message: WS_AUTH_MESSAGE, nonce, signature },
  };
}

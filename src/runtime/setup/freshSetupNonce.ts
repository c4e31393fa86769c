import type { Address } from '../../core/address.js';
import { parseNonceState, type NoncePair } from '../../engine/nonces/noncePair.js';
import { MAX_NONCE_ANCHOR } from '../../protocol/permit.js';
import type { RestClient } from '../../venue/rest/restClient.js';
import { SetupError } from './setupError.js';

/**
 * The pair a setup signature uses: a fresh nonce-state read, then anchor + 1 at bit 0 (spec
 * "Nonces": signing current + 1 from bit 0 cannot collide with permits in flight). Both
 * signatures of one register-signer request share it. Each setup action reads again, because the
 * previous one moved the venue's anchor.
 */
export async function freshSetupNonce(
  rest: Pick<RestClient, 'nonceState'>,
  account: Address,
  signal?: AbortSignal,
): Promise<NoncePair> {
  const state = parseNonceState(await rest.nonceState(account, signal === undefined ? undefined : { signal }));
  const anchor = state.anchor + 1n;
  if (anchor > MAX_NONCE_ANCHOR) {
    throw new SetupError('nonce', `account ${account} has used every nonce anchor (current ${state.anchor})`, {
      hints: ['this account cannot sign any more actions; use a new account'],
    });
  }
  return { anchor, bit: 0 };
}

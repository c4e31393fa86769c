import { PerpbotError } from '../../core/perpbotError.js';
import { unixSeconds } from '../../core/clock.js';
import { nonceFor } from '../nonces/nonceFor.js';
import type { NonceAllocator } from '../nonces/nonceAllocator.js';
import type { NoncePair } from '../nonces/noncePair.js';
import { signRequest, type SignedRequest } from './signedRequest.js';
import type { ResolvedAction } from '../checks/wireAction.js';
import type { SigningDeps } from './signingDeps.js';

/**
 * A nonce and a signature for one resolved action (a new signature of the send stage's retries):
 * synchronous when a nonce is free and the signer answers at once, a promise otherwise.
 */
export function signAction(
  intentId: string,
  action: ResolvedAction,
  deps: SigningDeps,
  signal?: AbortSignal,
): SignedRequest | Promise<SignedRequest> {
  const nonce = deps.auth.mode === 'jwt' ? undefined : nonceFor(deps.auth.allocator, signal);
  return nonce instanceof Promise
    ? nonce.then((pair) => signStage(pair, intentId, action, deps))
    : signStage(nonce, intentId, action, deps);
}

/**
 * The sign stage: the request for one resolved action, with the nonce stage's pair in permit mode
 * (recorded in the journal before it is signed) or the session's JWT. A pair that never got
 * signed is reported back as not consumed.
 */
export function signStage(
  nonce: NoncePair | undefined,
  intentId: string,
  action: ResolvedAction,
  deps: SigningDeps,
): SignedRequest | Promise<SignedRequest> {
  const auth = deps.auth;
  if (auth.mode === 'jwt') return signRequest(action, { mode: 'jwt' }, deps.selectors);
  if (nonce === undefined)
    throw new PerpbotError('a permit needs a nonce pair', {
      code: 'NONCE_NOT_ALLOCATED',
      hints: ['report this as a bug'],
    });
  try {
    deps.journal.nonceAllocated(nonce, intentId);
    const signed = signRequest(
      action,
      {
        mode: 'permit',
        context: auth.context(),
        signer: auth.signer,
        account: deps.account,
        nonce,
        deadline: unixSeconds(deps.clock) + deps.permitDeadlineSeconds,
      },
      deps.selectors,
    );
    return signed instanceof Promise
      ? signed.catch((error: unknown) => notSigned(auth.allocator, nonce, error))
      : signed;
  } catch (error) {
    return notSigned(auth.allocator, nonce, error);
  }
}

/** Never signed (or unsignable): the pair was not consumed. */
function notSigned(allocator: NonceAllocator, nonce: NoncePair, error: unknown): never {
  allocator.report(nonce, 'refused');
  throw error;
}

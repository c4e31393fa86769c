import { unixSeconds } from '../../core/clock.js';
import type { ExecutorDeps } from './executorDeps.js';
import type { NonceAllocator } from '../nonces/nonceAllocator.js';
import type { NoncePair } from '../nonces/noncePair.js';
import { signRequest, type ResolvedAction, type SignedRequest } from './signedRequest.js';

/**
 * A nonce and a signature for one resolved action: synchronous when a nonce is free and the
 * signer answers at once (the common case: no microtask hop between the checks and the socket), a
 * promise otherwise. A pair that never got signed is reported back as not consumed.
 */
export function signAction(
  intentId: string,
  action: ResolvedAction,
  deps: ExecutorDeps,
  signal?: AbortSignal,
): SignedRequest | Promise<SignedRequest> {
  if (deps.auth.mode === 'jwt') return signRequest(action, { mode: 'jwt' }, deps.selectors);
  const allocator = deps.auth.allocator;
  // What allocate() would resolve with at once; an aborted signal goes through allocate(), which refuses it.
  const free = signal?.aborted === true ? undefined : allocator.tryAllocate();
  if (free !== undefined) return signWithNonce(free, intentId, action, deps);
  return allocator.allocate(signal).then((nonce) => signWithNonce(nonce, intentId, action, deps));
}

function signWithNonce(
  nonce: NoncePair,
  intentId: string,
  action: ResolvedAction,
  deps: ExecutorDeps,
): SignedRequest | Promise<SignedRequest> {
  const auth = deps.auth as Extract<ExecutorDeps['auth'], { mode: 'permit' }>;
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

import type { Refusal } from '../intents/refusal.js';
import type { NonceAllocator } from './nonceAllocator.js';
import { nonceFor } from './nonceFor.js';
import type { NoncePair } from './noncePair.js';

/**
 * What a held action waits for before it takes a nonce: undefined to go, or why not (then nothing
 * is signed or sent). One action of a replacement is checked and admitted beside the other, and
 * goes the moment the other's answer allows it.
 */
export type SendHold = Promise<Refusal | undefined>;

/** The auth the nonce stage serves: a pair per permit, none with a session JWT. */
export type NonceAuth = { readonly mode: 'jwt' } | { readonly mode: 'permit'; readonly allocator: NonceAllocator };

/** A pair (permit mode), none (JWT mode), or the hold's refusal. */
export type StageNonce = NoncePair | undefined | Refusal;

/**
 * The nonce stage: a free pair at once when there is one (the common case), otherwise a promise of
 * the next. A held action waits for its hold first: a pair allocated and held would count as in
 * flight and could keep the allocator from rolling to the next anchor, which the action the hold
 * waits for may need.
 */
export function nonceStage(
  auth: NonceAuth,
  hold: SendHold | undefined,
  signal: AbortSignal | undefined,
): StageNonce | Promise<StageNonce> {
  if (hold === undefined) return pairFor(auth, signal);
  return hold.then((withheld) => withheld ?? pairFor(auth, signal));
}

function pairFor(auth: NonceAuth, signal: AbortSignal | undefined): NoncePair | undefined | Promise<NoncePair> {
  return auth.mode === 'permit' ? nonceFor(auth.allocator, signal) : undefined;
}

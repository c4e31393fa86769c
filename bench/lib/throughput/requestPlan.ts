import { NONCE_BITS_PER_ANCHOR, type NoncePair } from '../../../src/engine/nonces/noncePair.js';

/**
 * The order of one load slice's signed requests: `pairs` place-then-cancel pairs, each cancel
 * `lag` places after its own place, so the account never rests more than `lag` orders and the
 * venue's book and margin work stay the same size through the run. Nonces follow list order
 * (anchor, then bit 0..207), continuing from `start`.
 */
export interface PlannedRequest {
  readonly kind: 'place' | 'cancel';
  /** Index of the pair within the slice, from 0. */
  readonly pair: number;
  readonly nonce: NoncePair;
}

export interface RequestPlan {
  readonly requests: readonly PlannedRequest[];
  /** The first nonce the next slice may use. */
  readonly next: NoncePair;
}

export function planPairs(pairs: number, lag: number, start: NoncePair): RequestPlan {
  const requests: PlannedRequest[] = [];
  let nonce = start;
  const push = (kind: PlannedRequest['kind'], pair: number): void => {
    requests.push({ kind, pair, nonce });
    nonce = nextNonce(nonce);
  };
  for (let pair = 0; pair < pairs; pair++) {
    push('place', pair);
    if (pair >= lag) push('cancel', pair - lag);
  }
  for (let pair = Math.max(0, pairs - lag); pair < pairs; pair++) push('cancel', pair);
  return { requests, next: nonce };
}

/** The pair after `nonce`: the next bit, or bit 0 of the next anchor once 207 is used. */
export function nextNonce(nonce: NoncePair): NoncePair {
  return nonce.bit + 1 >= NONCE_BITS_PER_ANCHOR
    ? { anchor: nonce.anchor + 1n, bit: 0 }
    : { anchor: nonce.anchor, bit: nonce.bit + 1 };
}

/**
 * Which of the orders that left the book while we were not listening were filled, judged only by
 * how far the venue's position moved past what the journaled fills explain. Each candidate either
 * filled its whole remainder or none of it (a resting order that leaves the book is filled or
 * cancelled). The answer is given only when exactly one choice explains the move: the outcome of
 * an order is never guessed.
 */
export interface AttributionCandidate {
  readonly key: string;
  /** What filling the remainder would add to the signed position (buy +, sell −), fixed-point. */
  readonly signedRemainder: bigint;
}

export type Attribution =
  | { readonly kind: 'unique'; readonly filled: readonly string[]; readonly notFilled: readonly string[] }
  | { readonly kind: 'none' }
  | { readonly kind: 'ambiguous'; readonly solutions: number };

/** Above this many candidates the search (2^n) is not attempted and the answer is ambiguous. */
export const MAX_ATTRIBUTION_CANDIDATES = 16;

export function attributeFills(candidates: readonly AttributionCandidate[], unexplained: bigint): Attribution {
  const keys = (filled: boolean) => candidates.filter(() => filled).map((c) => c.key);
  // Remainders of one sign (and none zero): only "none" sums to 0 and only "all" to the total.
  const oneSign = candidates.every((c) => c.signedRemainder > 0n) || candidates.every((c) => c.signedRemainder < 0n);
  if (oneSign && unexplained === 0n) return { kind: 'unique', filled: [], notFilled: keys(true) };
  if (oneSign && unexplained === candidates.reduce((sum, c) => sum + c.signedRemainder, 0n))
    return { kind: 'unique', filled: keys(true), notFilled: [] };
  if (candidates.length > MAX_ATTRIBUTION_CANDIDATES) return { kind: 'ambiguous', solutions: Number.POSITIVE_INFINITY };
  let found: number | undefined;
  let solutions = 0;
  for (let mask = 0; mask < 1 << candidates.length; mask++) {
    let sum = 0n;
    candidates.forEach((c, i) => {
      if (mask & (1 << i)) sum += c.signedRemainder;
    });
    if (sum === unexplained) {
      solutions += 1;
      found = mask;
    }
  }
  if (solutions === 0 || found === undefined) return { kind: 'none' };
  if (solutions > 1) return { kind: 'ambiguous', solutions };
  const mask = found;
  return {
    kind: 'unique',
    filled: candidates.filter((_, i) => mask & (1 << i)).map((c) => c.key),
    notFilled: candidates.filter((_, i) => !(mask & (1 << i))).map((c) => c.key),
  };
}

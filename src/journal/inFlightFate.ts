import type { NonceState } from '../engine/nonces/noncePair.js';
import type { InFlightIntent } from './journalRows.js';

/** The client_order_id a placement was sent with (from its journaled request bodies). */
export function clientOrderIdOf(f: InFlightIntent): string | undefined {
  for (const r of f.requests) {
    const coid = r.body['client_order_id'];
    if (typeof coid === 'string') return coid;
  }
  return undefined;
}

export type InFlightFate =
  | { kind: 'executed' | 'not_executed' | 'unknowable'; reason: string }
  | { kind: 'pending'; reason: string; retryAtMs: number };

/**
 * What the venue's nonce state says about an intent's signed requests. The venue accepts only the
 * current anchor or the next, so a pair not consumed in the current anchor, or of a later anchor,
 * can still land until its deadline and never after it.
 */
export function inFlightFate(f: InFlightIntent, state: NonceState, nowSeconds: number): InFlightFate {
  const signed = f.requests.filter((r) => r.nonce !== undefined);
  if (f.requests.length === 0) return { kind: 'not_executed', reason: 'never sent' };
  if (signed.length === 0)
    return { kind: 'unknowable', reason: 'sent without a nonce (JWT); its fate cannot be read from the venue' };
  let pendingUntil: number | undefined;
  let unknowable = false;
  for (const r of signed) {
    const pair = r.nonce!;
    if (pair.anchor === state.anchor && ((state.bitmap >> BigInt(pair.bit)) & 1n) === 1n) {
      return { kind: 'executed', reason: `its nonce (${pair.anchor}, ${pair.bit}) is consumed on the venue` };
    }
    if (pair.anchor < state.anchor) {
      unknowable = true;
      continue;
    }
    // No deadline on record: it could land at any time.
    const deadline = deadlineOf(r.body) ?? Number.MAX_SAFE_INTEGER;
    if (nowSeconds <= deadline) pendingUntil = Math.max(pendingUntil ?? 0, deadline);
  }
  if (pendingUntil !== undefined) {
    return {
      kind: 'pending',
      reason: `its nonce is not consumed yet and its permit is valid until ${pendingUntil}`,
      retryAtMs: Math.min(Number.MAX_SAFE_INTEGER, (pendingUntil + 1) * 1000),
    };
  }
  if (unknowable)
    return { kind: 'unknowable', reason: 'the venue has moved past its nonce anchor, whose bitmap it no longer shows' };
  return { kind: 'not_executed', reason: 'its nonce was never consumed and its permit deadline has passed' };
}

function deadlineOf(body: Readonly<Record<string, unknown>>): number | undefined {
  for (const field of ['permit', 'permit_params']) {
    const permit = body[field];
    if (typeof permit === 'object' && permit !== null) {
      const deadline = (permit as Record<string, unknown>)['deadline'];
      if (typeof deadline === 'number') return deadline;
    }
  }
  return undefined;
}

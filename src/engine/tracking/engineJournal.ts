import type { IntentOutcome } from '../intents/intentOutcome.js';
import type { Intent } from '../intents/intents.js';
import type { NoncePair } from '../nonces/noncePair.js';
import type { ActionRequestBodies } from '../../venue/rest/actionBodies.js';

/**
 * Where the engine records what it does, in the order it does it, so a restarted process can
 * account for everything. Each hook runs synchronously and must be durable when it returns: the
 * engine acts only after it (a nonce pair is recorded before it is signed; a request before it is
 * sent). Bodies arrive without signatures: a signed permit with an unused nonce is a credential.
 */
export interface EngineJournal {
  intentReceived(intent: Intent, atMs: number): void;
  /** The pair is about to be signed: it must never be handed out again, even after a crash. */
  nonceAllocated(pair: NoncePair, intentId: string): void;
  /** About to send (first send and identical resends). */
  requestSent(entry: {
    intentId: string;
    endpoint: keyof ActionRequestBodies;
    body: Readonly<Record<string, unknown>>;
    nonce?: NoncePair;
    attempt: number;
    atMs: number;
  }): void;
  /** The venue's answer (or the lack of one) to one send. */
  responseReceived(entry: {
    intentId: string;
    attempt: number;
    ok: boolean;
    orderId?: string;
    error?: string;
    atMs: number;
  }): void;
  outcome(outcome: IntentOutcome): void;
}

export const NO_JOURNAL: EngineJournal = Object.freeze({
  intentReceived() {},
  nonceAllocated() {},
  requestSent() {},
  responseReceived() {},
  outcome() {},
});

/** The body as journaled: the permit's signature removed, everything else kept. */
export function journalBody(body: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...body };
  for (const field of ['permit', 'permit_params']) {
    const permit = copy[field];
    if (typeof permit === 'object' && permit !== null) {
      const { signature: _signature, ...rest } = permit as Record<string, unknown>;
      copy[field] = rest;
    }
  }
  return copy;
}

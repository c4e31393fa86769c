import type { FailedIntent } from '../journalTruth.js';
import { firstFew, type InvariantResult } from './invariant.js';

/** The venue's nonce refusals: the engine must resync and re-sign, never hand one to a strategy. */
export const NONCE_ERROR_KINDS: ReadonlySet<string> = new Set(['NonceUsed', 'InvalidNonceAnchor', 'InvalidNonceIndex']);

/** No strategy was told an intent failed because of a nonce (from the journal's intent outcomes). */
export function nonceErrors(failed: readonly FailedIntent[], intents: number): InvariantResult {
  const nonce = failed.filter((f) => f.kind !== undefined && NONCE_ERROR_KINDS.has(f.kind));
  return {
    id: 'nonce_errors',
    title: 'nonce errors reaching a strategy',
    ok: nonce.length === 0,
    measured: `${nonce.length} of ${intents} intents`,
    ...(nonce.length === 0
      ? {}
      : {
          detail: `failed with a nonce error: ${firstFew(
            nonce.map((f) => `${f.intentId} (${f.kind}: ${f.message})`),
            2,
          )}`,
        }),
    data: {
      intents,
      failedIntents: failed.length,
      nonceErrors: nonce.length,
      byKind: Object.fromEntries([...NONCE_ERROR_KINDS].map((k) => [k, nonce.filter((f) => f.kind === k).length])),
    },
  };
}

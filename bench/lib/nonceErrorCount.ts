import { NO_JOURNAL, type EngineJournal } from '../../src/engine/tracking/engineJournal.js';

/** The contract's nonce reverts (spec "Errors"): any of them in a burst is a bug, not noise. */
export const NONCE_ERROR_PATTERN = /NonceUsed|InvalidNonceAnchor|InvalidNonceIndex/;

export interface NonceErrorCount {
  /** Every refused send, including those the engine retried and recovered from. */
  readonly journal: EngineJournal;
  nonceErrors(): number;
  failedSends(): number;
}

/** A journal that counts failed sends and nonce errors among them, and records nothing else. */
export function nonceErrorCount(): NonceErrorCount {
  let nonce = 0;
  let failed = 0;
  return {
    journal: {
      ...NO_JOURNAL,
      responseReceived(entry) {
        if (entry.ok) return;
        failed++;
        if (entry.error !== undefined && NONCE_ERROR_PATTERN.test(entry.error)) nonce++;
      },
    },
    nonceErrors: () => nonce,
    failedSends: () => failed,
  };
}

import type { EngineJournal } from '../engine/tracking/engineJournal.js';
import type { Journal } from './journal.js';

/**
 * The engine's write-ahead port over the journal, for one account and run. Each hook commits
 * before it returns, which is what lets the engine sign and send right after it.
 */
export function journalEngineHooks(journal: Journal, account: string, runId: string): EngineJournal {
  return {
    intentReceived: (intent, atMs) => journal.recordIntent(account, runId, intent, atMs),
    nonceAllocated: (pair, intentId) => journal.recordNonce(account, runId, pair, intentId),
    requestSent: (entry) => journal.recordRequest(entry),
    responseReceived: (entry) => journal.recordResponse(entry),
    outcome: (outcome) => journal.recordOutcome(outcome),
  };
}

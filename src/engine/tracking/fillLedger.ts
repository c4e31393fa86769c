import type { TrackedFill } from './trackedFill.js';

/**
 * Where a fill becomes counted: the one place that decides whether a fill was seen before, keyed
 * by the account and the venue's fill id (an engine trades one account, so its ledger is that
 * account's; another account's fill may carry the same id). A fill can reach the bot several ways
 * (the fills channel, the venue's trade history read by a reconciliation, a restart that reads
 * history again, a resend after a 5xx whose first send had executed) and must be counted once
 * across all of them: by the tracker (order states, the fills strategies and budgets hear) and by
 * the journal alike. The tracker asks its ledger before it counts anything; with a journal, the
 * ledger is the journal's fills table (`INSERT OR IGNORE` by account and fill id), so what one run
 * counted the next one does not.
 */
export type FillOrigin = 'venue' | 'history';

export interface FillLedger {
  /** Records the fill when its id is new and returns true; false when it was counted before, from any origin. */
  record(fill: TrackedFill, origin: FillOrigin): boolean;
}

/** Fill ids an in-memory ledger remembers; the oldest are forgotten past it (a bot runs for weeks). */
export const MAX_REMEMBERED_FILL_IDS = 100_000;

/** The ledger of an engine without a journal: the ids seen by this process, bounded. */
export function memoryFillLedger(maxIds = MAX_REMEMBERED_FILL_IDS): FillLedger {
  const seen = new Set<string>();
  return {
    record(fill) {
      if (seen.has(fill.id)) return false;
      seen.add(fill.id);
      if (seen.size > maxIds) {
        const oldest = seen.values().next().value;
        if (oldest !== undefined) seen.delete(oldest);
      }
      return true;
    },
  };
}

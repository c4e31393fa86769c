import type { Clock } from '../core/clock.js';
import type { FillLedger } from '../engine/tracking/fillLedger.js';
import type { Journal } from './journal.js';

/**
 * The engine tracker's fill ledger over the journal: a fill is counted (by the tracker, the
 * strategies and their budgets) only if the journal's fills table did not hold the account's
 * fill of that id, from the fills channel, from the venue's trade history, or from a previous run
 * (another account's fill of the same id, e.g. from an earlier simulator, is another fill). The journal row is
 * written before the tracker counts the fill, so nothing counted is ever missing from the file.
 */
export function journalFillLedger(journal: Journal, account: string, clock: Clock): FillLedger {
  return {
    record: (fill, origin) => journal.recordFill(account, fill, origin, clock.now()),
  };
}

import { addDecimals, negateDecimal, normalizeDecimal } from '../core/decimal.js';
import type { Journal } from './journal.js';
import type { BalanceComparison } from './reconciliationReport.js';

/** The venue's balance against the last journaled snapshot. */
export function compareBalance(journal: Journal, account: string, venueBalance: string): BalanceComparison {
  const venue = normalizeDecimal(venueBalance, 'balance');
  const last = journal.latestBalance(account);
  if (last === undefined) return { venue };
  return {
    venue,
    journaled: last.balance,
    journaledAtMs: last.atMs,
    change: addDecimals(venue, negateDecimal(last.balance), 'balance'),
  };
}

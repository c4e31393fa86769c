import { addDecimals, negateDecimal } from '../../core/decimal.js';
import type { PositionValue } from './pnlLedger.js';
import type { PnlView } from './pnlView.js';
import type { SessionLedger } from './sessionLedger.js';

/**
 * The account valued one way, for every view: the venue's balance, the balance the session opened
 * with, the ledger's PnL and its open positions at the marks. Exact decimal strings (USDC at the
 * venue's 18 decimals). The figures reconcile by construction:
 *
 *   balanceChange = balance − openingBalance = realisedPnl − fees + otherBalanceChange
 *   equity        = balance + unrealisedPnl  (the positions' unrealisedPnl add up to it)
 *   netPnl        = realisedPnl + unrealisedPnl − fees
 *
 * `otherBalanceChange` is what moved the balance besides this session's fills and fees: funding,
 * deposits and withdrawals, or a fill the ledger did not book. Zero on a venue without funding once
 * the balance has caught up with the fills.
 */
export interface AccountValuation {
  /** The venue's cross-margin balance; null until it reported one. */
  readonly balance: string | null;
  readonly openingBalance: string | null;
  readonly balanceChange: string | null;
  readonly otherBalanceChange: string | null;
  /** null while the balance is unknown or an open position has no mark. */
  readonly equity: string | null;
  readonly pnl: PnlView;
  readonly positions: readonly PositionValue[];
}

/** What the valuation reads of the ledger. */
export type ValuedLedger = Pick<SessionLedger, 'accountPnl' | 'accountPositionValues' | 'openingBalance'>;

/** The account now: the ledger's figures against `balance` (the venue's, as the tracker last heard it). */
export function valueAccount(ledger: ValuedLedger, balance: string | undefined): AccountValuation {
  const pnl = ledger.accountPnl();
  const opening = ledger.openingBalance();
  const change = balance === undefined || opening === undefined ? null : minus(balance, opening);
  return {
    balance: balance ?? null,
    openingBalance: opening ?? null,
    balanceChange: change,
    otherBalanceChange: change === null ? null : minus(change, minus(pnl.realisedPnl, pnl.fees)),
    equity: balance === undefined ? null : equityOf(balance, pnl),
    pnl,
    positions: ledger.accountPositionValues(),
  };
}

/** Balance plus the open positions' unrealised PnL; null while a position has no mark. */
export function equityOf(balance: string, pnl: PnlView): string | null {
  return pnl.unpricedMarkets.length > 0 ? null : addDecimals(balance, pnl.unrealisedPnl, 'equity');
}

function minus(a: string, b: string): string {
  return addDecimals(a, negateDecimal(b), 'balance change');
}

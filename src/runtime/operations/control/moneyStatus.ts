import { valueAccount, type ValuedLedger } from '../../../engine/ledger/accountValuation.js';
import type { PnlView } from '../../../engine/ledger/pnlView.js';
import type { BotStatus, PnlStatus, PositionStatus } from './botStatus.js';
import { accountDisplay, pnlDisplay, type PnlDisplay, type PricePlaces } from './statusDisplay.js';

/** The money part of the bot's status: the account valued one way, with its display. */
export type MoneyStatus = Pick<
  BotStatus,
  'balance' | 'openingBalance' | 'balanceChange' | 'otherBalanceChange' | 'equity' | 'pnl' | 'positions' | 'display'
>;

/**
 * The account as the status reports it: the ledger's valuation (accountValuation.ts) against the
 * venue's balance, and each figure as screens show it. Nothing is computed here that the
 * valuation does not give; this only shapes it.
 */
export function moneyStatus(ledger: ValuedLedger, balance: string | undefined, places: PricePlaces): MoneyStatus {
  const valuation = valueAccount(ledger, balance);
  const shown = accountDisplay(valuation, places);
  const positions = valuation.positions.map((p, i): PositionStatus => ({
    marketId: p.marketId,
    side: p.signedSize.startsWith('-') ? 'sell' : 'buy',
    size: p.signedSize.startsWith('-') ? p.signedSize.slice(1) : p.signedSize,
    signedSize: p.signedSize,
    avgEntryPrice: p.avgEntryPrice,
    markPrice: p.markPrice ?? null,
    unrealisedPnl: p.unrealisedPnl ?? null,
    display: shown.positions[i]!,
  }));
  return {
    balance: valuation.balance,
    openingBalance: valuation.openingBalance,
    balanceChange: valuation.balanceChange,
    otherBalanceChange: valuation.otherBalanceChange,
    equity: valuation.equity,
    pnl: pnlStatus(valuation.pnl),
    positions,
    display: shown.account,
  };
}

/** The ledger's figures, every digit (status, metrics and `ctx.pnl` agree); null while a mark is missing. */
export function pnlStatus(pnl: PnlView): PnlStatus | null {
  if (pnl.unpricedMarkets.length > 0) return null;
  return { realisedPnl: pnl.realisedPnl, unrealisedPnl: pnl.unrealisedPnl, fees: pnl.fees, netPnl: pnl.netPnl };
}

/** A PnL and its display together (a strategy's, the unattributed fills'). */
export function pnlWithDisplay(pnl: PnlView): { pnl: PnlStatus | null; display: { pnl: PnlDisplay | null } } {
  const status = pnlStatus(pnl);
  return { pnl: status, display: { pnl: status === null ? null : pnlDisplay(pnl) } };
}

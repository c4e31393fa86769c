import type { Journal } from './journal.js';
import { journalPnl, type JournalPnlRow } from './journalPnl.js';
import type { JournalFill, JournalOrder } from './journalRows.js';

/** Recent orders and fills from the journal, newest first (`perpbot history`). */
export interface JournalHistory {
  readonly path: string;
  readonly orders: readonly JournalOrder[];
  readonly fills: readonly JournalFill[];
  /** Each strategy's PnL over every journaled fill of its account (the engine ledger's; open positions unpriced). */
  readonly pnl: readonly JournalPnlRow[];
}

/** Every fill of the journal; a bot's journal holds one row per fill, so reading them all stays cheap. */
const ALL = Number.MAX_SAFE_INTEGER;

export function readJournalHistory(journal: Journal, limit: number, account?: string): JournalHistory {
  return {
    path: journal.path,
    orders: journal.recentOrders(limit, account),
    fills: journal.recentFills(limit, account),
    pnl: journalPnl(journal.recentFills(ALL, account).reverse()),
  };
}

import { negateDecimal } from '../core/decimal.js';
import { SessionLedger, type MarkOf } from '../engine/ledger/sessionLedger.js';
import type { PnlView } from '../engine/ledger/pnlView.js';
import type { PositionView } from '../engine/tracking/accountState.js';
import type { JournalFill } from './journalRows.js';

/** One strategy's (or the unattributed fills') PnL over the journaled fills of an account. */
export interface JournalPnlRow {
  readonly account: string;
  /** The strategy's name; `-` for fills of orders this bot did not place. */
  readonly strategy: string;
  readonly fills: number;
  readonly pnl: PnlView;
  /** Net size per market of its fills, long positive. */
  readonly positions: readonly { readonly marketId: number; readonly signedSize: string }[];
}

/** The label of fills attributed to no strategy. */
export const UNATTRIBUTED = '-';

/**
 * The journaled fills (oldest first) booked in the engine's own ledger, one per account: what
 * `perpbot history` shows of PnL, with the same average-entry valuation the running bot's
 * `ctx.pnl`, status and metrics read. Offline there is no mark unless `markOf` gives one: open positions
 * are then listed as unpriced. A fill journaled without a fee counts none.
 */
export function journalPnl(fills: readonly JournalFill[], markOf: MarkOf = () => undefined): JournalPnlRow[] {
  const ledgers = new Map<string, SessionLedger>();
  const counts = new Map<string, number>();
  for (const f of fills) {
    let ledger = ledgers.get(f.account);
    if (ledger === undefined) {
      ledger = new SessionLedger(markOf);
      ledgers.set(f.account, ledger);
    }
    ledger.onFill({
      marketId: f.marketId,
      side: f.side,
      price: f.price,
      size: f.size,
      fee: f.fee ?? '0',
      ...(f.strategy === undefined ? {} : { strategy: f.strategy }),
    });
    const key = `${f.account} ${f.strategy ?? UNATTRIBUTED}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const rows: JournalPnlRow[] = [];
  for (const [account, ledger] of ledgers) {
    for (const strategy of ledger.strategyNames())
      rows.push(row(account, strategy, counts, ledger.strategyPnl(strategy), ledger.strategyPositions(strategy)));
    const foreign = ledger.unattributed();
    if (foreign.fills > 0) rows.push(row(account, UNATTRIBUTED, counts, foreign.pnl, new Map()));
  }
  return rows;
}

function row(
  account: string,
  strategy: string,
  counts: ReadonlyMap<string, number>,
  pnl: PnlView,
  positions: ReadonlyMap<number, PositionView>,
): JournalPnlRow {
  return {
    account,
    strategy,
    fills: counts.get(`${account} ${strategy}`) ?? 0,
    pnl,
    positions: [...positions].map(([marketId, p]) => ({
      marketId,
      signedSize: p.side === 'buy' ? p.size : negateDecimal(p.size),
    })),
  };
}

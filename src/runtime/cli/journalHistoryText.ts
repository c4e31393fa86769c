import { shortId } from '../../core/shortId.js';
import type { JournalHistory } from '../../journal/journalHistory.js';
import type { JournalPnlRow } from '../../journal/journalPnl.js';
import type { JournalFill } from '../../journal/journalRows.js';
import { pnlDisplay } from '../operations/control/statusDisplay.js';
import { formatTable as table } from './formatStatus.js';

/** `perpbot history`'s text: the journal's recent orders and fills as tables, and each strategy's PnL. */
const time = (ms: number): string =>
  new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, 'Z');
const shortOrNone = (id: string | undefined): string => (id === undefined ? '-' : shortId(id));

export function formatJournalHistory(history: JournalHistory): string {
  const out: string[] = [`journal  ${history.path}`, ''];
  if (history.orders.length === 0) out.push('orders: none');
  else {
    out.push('orders:');
    out.push(
      table(
        ['updated', 'strategy', 'market', 'side', 'size', 'price', 'filled', 'state', 'order id', 'intent'],
        history.orders.map((o) => [
          time(o.updatedMs),
          o.strategy,
          String(o.marketId),
          o.side,
          o.size,
          o.price,
          o.filledSize,
          o.state,
          shortOrNone(o.orderId),
          o.intentId,
        ]),
      ),
    );
  }
  out.push('');
  if (history.fills.length === 0) out.push('fills: none');
  else out.push('fills:', fillsTable(history.fills));
  out.push('', ...formatPnl(history.pnl));
  return `${out.join('\n')}\n`;
}

function formatPnl(rows: readonly JournalPnlRow[]): string[] {
  if (rows.length === 0) return ['pnl: none'];
  return [
    'pnl (every journaled fill, valued by average entry as the venue values it; USDC to 6 places; open positions are not valued offline: perpbot status does):',
    table(
      ['strategy', 'account', 'fills', 'realisedPnl', 'fees', 'realisedPnl - fees', 'open'],
      rows.map((r) => {
        // Shown as the bot shows a PnL: the columns add up on screen.
        const shown = pnlDisplay({ realisedPnl: r.pnl.realisedPnl, fees: r.pnl.fees, unrealisedPnl: '0' });
        return [
          r.strategy,
          shortId(r.account),
          String(r.fills),
          shown.realisedPnl,
          shown.fees,
          shown.netPnl,
          r.positions.map((p) => `${p.signedSize}@${p.marketId}`).join(' ') || 'flat',
        ];
      }),
    ),
  ];
}

/** The fills as a table; listing several accounts, each fill's account too (an id alone identifies no fill). */
function fillsTable(fills: readonly JournalFill[]): string {
  const accounts = new Set(fills.map((f) => f.account)).size > 1;
  const header = ['time', 'strategy', 'market', 'side', 'size', 'price', 'fee', 'source'];
  return table(
    [...header, ...(accounts ? ['account'] : []), 'fill id', 'order id'],
    fills.map((f) => [
      time(f.atMs),
      f.strategy ?? '-',
      String(f.marketId),
      f.side,
      f.size,
      f.price,
      f.fee ?? '-',
      f.source,
      ...(accounts ? [shortId(f.account)] : []),
      shortId(f.fillId),
      shortOrNone(f.orderId),
    ]),
  );
}

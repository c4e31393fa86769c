import type { Journal } from './journal.js';
import type { JournalFill, JournalOrder } from './journalRows.js';

/** Recent orders and fills from the journal, newest first (`perpbot history`). */
export interface JournalHistory {
  readonly path: string;
  readonly orders: readonly JournalOrder[];
  readonly fills: readonly JournalFill[];
}

export function readJournalHistory(journal: Journal, limit: number, account?: string): JournalHistory {
  return {
    path: journal.path,
    orders: journal.recentOrders(limit, account),
    fills: journal.recentFills(limit, account),
  };
}

/** Left-aligned columns separated by two spaces; the header row first. */
function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

const time = (ms: number): string =>
  new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, 'Z');
const shortId = (id: string | undefined): string =>
  id === undefined ? '-' : id.length > 20 ? `${id.slice(0, 10)}…${id.slice(-6)}` : id;

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
          shortId(o.orderId),
          o.intentId,
        ]),
      ),
    );
  }
  out.push('');
  if (history.fills.length === 0) out.push('fills: none');
  else out.push('fills:', fillsTable(history.fills));
  return `${out.join('\n')}\n`;
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
      shortId(f.orderId),
    ]),
  );
}

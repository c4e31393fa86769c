import { describe, expect, it } from 'vitest';
import { readJournalHistory } from '../../src/journal/journalHistory.js';
import { formatJournalHistory } from '../../src/runtime/cli/journalHistoryText.js';
import { useTempJournal } from './support/tempJournal.js';

const A = '0x00000000000000000000000000000000000000aa';
const B = '0x00000000000000000000000000000000000000bb';
let n = 0;
const pnlFill = (side: 'buy' | 'sell', size: string, price: string, fee: string, strategy?: string) => ({
  id: `f${++n}`,
  marketId: 1,
  orderId: `0x${n}`,
  side,
  price,
  size,
  fee,
  ...(strategy === undefined ? {} : { strategy, intentId: `${strategy}-${n}` }),
});

describe('perpbot history: PnL from the journaled fills', () => {
  const temp = useTempJournal('history');

  it('books every fill of an account, oldest first, per strategy, fills of orders not ours apart', () => {
    temp.journal.recordFill(A, pnlFill('buy', '0.2', '100', '0.02', 'mm'), 'venue', 1);
    temp.journal.recordFill(A, pnlFill('sell', '0.1', '110', '0.01', 'mm'), 'venue', 2);
    temp.journal.recordFill(A, pnlFill('sell', '0.5', '90', '0.03'), 'history', 3);
    temp.journal.recordFill(B, pnlFill('sell', '1', '50', '0', 'mm'), 'venue', 4);
    // Newer than the limit still counts: the PnL is over every journaled fill.
    const history = readJournalHistory(temp.journal, 1);
    expect(history.fills).toHaveLength(1);
    expect(
      history.pnl.map((r) => [r.account, r.strategy, r.fills, r.pnl.realisedPnl, r.pnl.fees, r.positions]),
    ).toEqual([
      [A, 'mm', 2, '1', '0.03', [{ marketId: 1, signedSize: '0.1' }]],
      [A, '-', 1, '0', '0.03', []],
      [B, 'mm', 1, '0', '0', [{ marketId: 1, signedSize: '-1' }]],
    ]);
    expect(readJournalHistory(temp.journal, 5, B).pnl.map((r) => r.account)).toEqual([B]);
    const text = formatJournalHistory(history);
    expect(text).toMatch(/^strategy +account +fills +realisedPnl +fees +realisedPnl - fees +open$/m);
    expect(text).toMatch(/^mm +0xaa +2 +1\.000000 +0\.030000 +0\.970000 +0\.1@1$/m);
  });
});

const ALICE = '0x00000000000000000000000000000000000000aa';
const BOB = '0x00000000000000000000000000000000000000bb';
const fill = (id: string, orderId: string) => ({
  id,
  marketId: 1,
  orderId,
  side: 'buy' as const,
  price: '64000',
  size: '0.001',
  fee: '0.0128',
  liquidity: 'TAKER',
});

/** The fills table of the text (up to the blank line before the PnL): its header and rows, split into cells. */
function fillRows(text: string): string[][] {
  const lines = text.split('\n');
  const start = lines.indexOf('fills:') + 1;
  const end = lines.indexOf('', start);
  return lines.slice(start, end === -1 ? undefined : end).map((l) => l.split(/\s{2,}/));
}

describe('perpbot history (temp.journal history)', () => {
  const temp = useTempJournal('history');

  it('lists the same fill id of two accounts as two fills, each with its account', () => {
    temp.journal.recordFill(ALICE, fill('1', '0xa1'), 'venue', Date.UTC(2026, 0, 1));
    temp.journal.recordFill(BOB, fill('1', '0xb1'), 'venue', Date.UTC(2026, 0, 2));
    const rows = fillRows(formatJournalHistory(readJournalHistory(temp.journal, 10)));
    const header = rows[0]!;
    expect(header).toContain('account');
    const at = (row: string[], column: string): string | undefined => row[header.indexOf(column)];
    // Addresses shortened like the ids (core/shortId): these test addresses are all leading zeros but one byte.
    expect(rows.slice(1).map((row) => [at(row, 'account'), at(row, 'fill id'), at(row, 'order id')])).toEqual([
      ['0xbb', '1', '0xb1'],
      ['0xaa', '1', '0xa1'],
    ]);
  });

  it('shows venue order ids by the digits that tell them apart, not their shared leading zeros', () => {
    const first = '0x0000000000000004d1e5c0a4f3b2e1d07a6b5c4d3e2f1a09';
    const second = '0x00000000000000070b4c9e2d1f3a5b6c7d8e9f0a1b2c3d4e';
    temp.journal.recordFill(ALICE, fill('1', first), 'venue', 1);
    temp.journal.recordFill(ALICE, fill('2', second), 'venue', 2);
    const rows = fillRows(formatJournalHistory(readJournalHistory(temp.journal, 10)));
    const column = rows[0]!.indexOf('order id');
    expect(rows.slice(1).map((row) => row[column])).toEqual(['0x070b…1b2c3d4e', '0x04d1…3e2f1a09']);
  });

  it('leaves the account column out when every fill listed is one account’s', () => {
    temp.journal.recordFill(ALICE, fill('1', '0xa1'), 'venue', 1);
    temp.journal.recordFill(BOB, fill('1', '0xb1'), 'venue', 2);
    const rows = fillRows(formatJournalHistory(readJournalHistory(temp.journal, 10, BOB)));
    expect(rows[0]).not.toContain('account');
    expect(rows.slice(1)).toHaveLength(1);
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Journal } from '../../../src/runtime/journal/journal.js';
import { formatJournalHistory, readJournalHistory } from '../../../src/runtime/journal/journalHistory.js';
import { openJournal } from '../../../src/runtime/journal/openJournal.js';

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

/** The fills table of the text: its header and rows, split into cells. */
function fillRows(text: string): string[][] {
  const lines = text.split('\n');
  return lines
    .slice(lines.indexOf('fills:') + 1)
    .filter((l) => l !== '')
    .map((l) => l.split(/\s{2,}/));
}

describe('perpbot history (journal history)', () => {
  let dir: string;
  let journal: Journal;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'perpbot-history-'));
    journal = openJournal(join(dir, 'journal.sqlite'));
  });
  afterEach(() => {
    journal.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the same fill id of two accounts as two fills, each with its account', () => {
    journal.recordFill(ALICE, fill('1', '0xa1'), 'venue', Date.UTC(2026, 0, 1));
    journal.recordFill(BOB, fill('1', '0xb1'), 'venue', Date.UTC(2026, 0, 2));
    const rows = fillRows(formatJournalHistory(readJournalHistory(journal, 10)));
    const header = rows[0]!;
    expect(header).toContain('account');
    const at = (row: string[], column: string): string | undefined => row[header.indexOf(column)];
    // Addresses shortened like the ids: the first 10 characters and the last 6.
    expect(rows.slice(1).map((row) => [at(row, 'account'), at(row, 'fill id'), at(row, 'order id')])).toEqual([
      ['0x00000000…0000bb', '1', '0xb1'],
      ['0x00000000…0000aa', '1', '0xa1'],
    ]);
  });

  it('leaves the account column out when every fill listed is one account’s', () => {
    journal.recordFill(ALICE, fill('1', '0xa1'), 'venue', 1);
    journal.recordFill(BOB, fill('1', '0xb1'), 'venue', 2);
    const rows = fillRows(formatJournalHistory(readJournalHistory(journal, 10, BOB)));
    expect(rows[0]).not.toContain('account');
    expect(rows.slice(1)).toHaveLength(1);
  });
});

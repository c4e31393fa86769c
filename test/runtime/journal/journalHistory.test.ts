import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Journal } from '../../../src/runtime/journal/journal.js';
import { formatJournalHistory, readJournalHistory } from '../../../src/runtime/journal/journalHistory.js';
import { openJournal } from '../../../src/runtime/journal/openJournal.js';

const A = '0x00000000000000000000000000000000000000aa';
const B = '0x00000000000000000000000000000000000000bb';
let n = 0;
const fill = (side: 'buy' | 'sell', size: string, price: string, fee: string, strategy?: string) => ({
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

  it('books every fill of an account, oldest first, per strategy, fills of orders not ours apart', () => {
    journal.recordFill(A, fill('buy', '0.2', '100', '0.02', 'mm'), 'venue', 1);
    journal.recordFill(A, fill('sell', '0.1', '110', '0.01', 'mm'), 'venue', 2);
    journal.recordFill(A, fill('sell', '0.5', '90', '0.03'), 'history', 3);
    journal.recordFill(B, fill('sell', '1', '50', '0', 'mm'), 'venue', 4);
    // Newer than the limit still counts: the PnL is over every journaled fill.
    const history = readJournalHistory(journal, 1);
    expect(history.fills).toHaveLength(1);
    expect(history.pnl.map((r) => [r.account, r.strategy, r.fills, r.pnl.realized, r.pnl.fees, r.positions])).toEqual([
      [A, 'mm', 2, '1', '0.03', [{ marketId: 1, signedSize: '0.1' }]],
      [A, '-', 1, '0', '0.03', []],
      [B, 'mm', 1, '0', '0', [{ marketId: 1, signedSize: '-1' }]],
    ]);
    expect(readJournalHistory(journal, 5, B).pnl.map((r) => r.account)).toEqual([B]);
    const text = formatJournalHistory(history);
    expect(text).toMatch(/^strategy +account +fills +realized +fees +realized - fees +open$/m);
    expect(text).toMatch(/^mm +0x00000000…0000aa +2 +1 +0\.03 +0\.97 +0\.1@1$/m);
  });
});

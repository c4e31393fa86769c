import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { readJournalTruth } from '../../../../src/runtime/diagnostics/chaos/journalTruth.js';
import { migrate } from '../../../../src/journal/journalMigrations.js';

const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

describe('readJournalTruth', () => {
  it('reads fills, failed outcomes, the latest position per market and balance of one account with plain SQL', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'chaos-journal-'));
    dirs.push(dir);
    const path = join(dir, 'journal.sqlite');
    const db = new Database(path);
    migrate(db, path);
    const me = '0xaaaa';
    const other = '0xbbbb';
    const intent = db.prepare(
      'INSERT INTO intents (intent_id, account, run_id, strategy, kind, market_id, intent, received_ms, outcome_type, outcome) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    intent.run('i-1', me, 'r', 'mm', 'placeLimit', 1, '{}', 1, 'accepted', '{}');
    intent.run(
      'i-2',
      me,
      'r',
      'mm',
      'placeLimit',
      1,
      '{}',
      2,
      'failed',
      JSON.stringify({
        type: 'failed',
        error: { code: 'VENUE_REFUSED', kind: 'NonceUsed', message: 'NonceUsed(1, 2)' },
      }),
    );
    intent.run(
      'i-3',
      other,
      'r',
      'mm',
      'placeLimit',
      1,
      '{}',
      3,
      'failed',
      JSON.stringify({ type: 'failed', error: { code: 'X', message: 'not mine' } }),
    );
    const fill = db.prepare(
      'INSERT INTO fills (fill_id, account, market_id, order_id, side, price, size, source, at_ms) VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?)',
    );
    fill.run('11', me, '0xA1', 'buy', '65000', '0.001', 'venue', 10);
    // Fill ids are keyed per account: another account's fill may carry the same id.
    fill.run('11', other, '0xb1', 'buy', '65000', '0.002', 'venue', 11);
    const position = db.prepare(
      'INSERT INTO positions (account, market_id, side, size, source, fill_seq, at_ms) VALUES (?, ?, ?, ?, ?, 0, ?)',
    );
    position.run(me, 1, 'buy', '0.001', 'venue', 20);
    position.run(me, 1, 'sell', '0.002', 'venue', 21);
    position.run(me, 2, 'buy', '0', 'base', 22);
    const balance = db.prepare('INSERT INTO balances (account, balance, source, at_ms) VALUES (?, ?, ?, ?)');
    balance.run(me, '1000', 'start', 5);
    balance.run(me, '999.5', 'reconnect', 30);
    db.close();

    const truth = readJournalTruth(path, '0xAAAA');
    expect(truth.intents).toBe(2);
    expect(truth.fills).toEqual([{ fillId: '11', orderId: '0xa1', marketId: 1, size: '0.001', source: 'venue' }]);
    expect(truth.failedIntents).toEqual([
      { intentId: 'i-2', code: 'VENUE_REFUSED', kind: 'NonceUsed', message: 'NonceUsed(1, 2)' },
    ]);
    expect(truth.positions).toEqual([
      { marketId: 1, side: 'sell', size: '0.002', atMs: 21 },
      { marketId: 2, side: 'buy', size: '0', atMs: 22 },
    ]);
    expect(truth.balance).toEqual({ balance: '999.5', atMs: 30 });
  });
});

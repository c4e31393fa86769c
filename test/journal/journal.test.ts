import { mkdtempSync, statSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { placeLimit } from '../../src/engine/intents/intentBuilders.js';
import { reconciledFillId, type Journal } from '../../src/journal/journal.js';
import { MIGRATIONS } from '../../src/journal/journalMigrations.js';
import { openJournal } from '../../src/journal/openJournal.js';

const ACCOUNT = '0x00000000000000000000000000000000000000AA';
const order = {
  intentId: 'i1',
  strategy: 's',
  marketId: 1,
  side: 'buy' as const,
  size: '0.002',
  price: '100',
  clientOrderId: 77n,
  state: 'submitted' as const,
  filledSize: '0',
};
const fill = (id: string, size: string, orderId = '0xabc') => ({
  id,
  marketId: 1,
  orderId,
  intentId: 'i1',
  side: 'buy' as const,
  price: '100',
  size,
  fee: '0.01',
  liquidity: 'MAKER',
});

describe('Journal', () => {
  let dir: string;
  let journal: Journal;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'perpbot-journal-'));
    journal = openJournal(join(dir, 'nested', 'journal.sqlite'));
  });
  afterEach(() => {
    journal.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates the directory, runs every migration once and uses WAL with full sync', () => {
    expect(journal.db.prepare('SELECT version FROM schema_version').get()).toEqual({ version: MIGRATIONS.length });
    expect(journal.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(journal.db.pragma('synchronous', { simple: true })).toBe(2);
    // Orders, nonces and fills are the owner's business alone.
    for (const file of ['journal.sqlite', 'journal.sqlite-wal', 'journal.sqlite-shm'])
      expect(statSync(join(dir, 'nested', file)).mode & 0o777, file).toBe(0o600);
    journal.close();
    journal = openJournal(join(dir, 'nested', 'journal.sqlite'));
    expect(journal.db.prepare('SELECT COUNT(*) AS n FROM schema_version').get()).toEqual({ n: 1 });
  });

  it('brings a file of an older schema up to date, one migration at a time', () => {
    journal.close();
    const path = join(dir, 'old.sqlite');
    journal = openJournal(path);
    journal.db.exec('DROP INDEX order_states_intent; DROP TABLE balances');
    journal.db.prepare('UPDATE schema_version SET version = 1').run();
    journal.close();
    journal = openJournal(path);
    expect(journal.db.prepare('SELECT version FROM schema_version').get()).toEqual({ version: MIGRATIONS.length });
    expect(
      journal.db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'order_states_intent'").get(),
    ).toEqual({ name: 'order_states_intent' });
    expect(
      journal.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'balances'").get(),
    ).toEqual({ name: 'balances' });
  });

  it('refuses a file written by a newer schema', () => {
    journal.db.prepare('UPDATE schema_version SET version = ?').run(MIGRATIONS.length + 1);
    journal.close();
    expect(() => (journal = openJournal(join(dir, 'nested', 'journal.sqlite')))).toThrow(
      /newer than this perpbot knows/,
    );
    journal = openJournal(join(dir, 'other.sqlite'));
  });

  it('keeps the highest nonce pair per account, anchor before bit', () => {
    expect(journal.nonceHighWater(ACCOUNT)).toBeUndefined();
    journal.recordNonce(ACCOUNT, 'r', { anchor: 7n, bit: 200 }, 'a');
    journal.recordNonce(ACCOUNT, 'r', { anchor: 8n, bit: 3 }, 'b');
    journal.recordNonce(ACCOUNT, 'r', { anchor: 8n, bit: 1 }, 'c');
    journal.recordNonce('0x00000000000000000000000000000000000000bb', 'r', { anchor: 9n, bit: 0 }, 'd');
    expect(journal.nonceHighWater(ACCOUNT.toLowerCase())).toEqual({ anchor: 8n, bit: 3 });
  });

  it('lists intents without a terminal outcome, with their requests and order, as in flight', () => {
    const intent = placeLimit({
      intentId: 'i1',
      strategy: 's',
      marketId: 1,
      side: 'buy',
      size: '0.002',
      price: '100',
      clientOrderId: 77n,
    });
    journal.recordIntent(ACCOUNT, 'run1', intent, 1);
    journal.recordOrder(ACCOUNT, order, 'engine', 2);
    journal.recordRequest({
      intentId: 'i1',
      endpoint: 'placeOrder',
      body: { client_order_id: '77', permit: { deadline: 99 } },
      nonce: { anchor: 5n, bit: 2 },
      attempt: 1,
      atMs: 3,
    });
    journal.recordOutcome({
      type: 'unknown',
      intentId: 'i1',
      strategy: 's',
      kind: 'placeLimit',
      marketId: 1,
      atMs: 4,
      reason: 'timeout',
    });
    const [inFlight] = journal.inFlightIntents(ACCOUNT);
    expect(inFlight).toMatchObject({
      intentId: 'i1',
      runId: 'run1',
      kind: 'placeLimit',
      order: { clientOrderId: '77', state: 'submitted' },
    });
    expect(inFlight?.intent['clientOrderId']).toBe('77');
    expect(inFlight?.requests).toEqual([
      {
        endpoint: 'placeOrder',
        body: { client_order_id: '77', permit: { deadline: 99 } },
        nonce: { anchor: 5n, bit: 2 },
        attempt: 1,
        atMs: 3,
      },
    ]);
    journal.recordOutcome({
      type: 'accepted',
      intentId: 'i1',
      strategy: 's',
      kind: 'placeLimit',
      marketId: 1,
      atMs: 5,
      orderId: '0xabc',
    });
    expect(journal.inFlightIntents(ACCOUNT)).toEqual([]);
  });

  it('keeps an order history row per change of state or filled size only', () => {
    journal.recordOrder(ACCOUNT, order, 'engine', 1);
    journal.recordOrder(ACCOUNT, { ...order, orderId: '0xABC', state: 'open' }, 'engine', 2);
    journal.recordOrder(ACCOUNT, { ...order, state: 'open' }, 'engine', 3);
    journal.recordOrder(ACCOUNT, { ...order, state: 'partially_filled', filledSize: '0.001' }, 'engine', 4);
    expect(journal.order('i1')).toMatchObject({
      orderId: '0xabc',
      state: 'partially_filled',
      filledSize: '0.001',
      clientOrderId: '77',
    });
    const history = journal.db.prepare('SELECT state FROM order_states ORDER BY id').all();
    expect(history).toEqual([{ state: 'submitted' }, { state: 'open' }, { state: 'partially_filled' }]);
    expect(journal.liveOrders(ACCOUNT).map((o) => o.intentId)).toEqual(['i1']);
    expect(journal.orderByOrderId('0xAbC')?.intentId).toBe('i1');
  });

  it('journals a fill once per id', () => {
    expect(journal.recordFill(ACCOUNT, fill('f1', '0.001'), 'venue', 1)).toBe(true);
    expect(journal.recordFill(ACCOUNT, fill('f1', '0.001'), 'venue', 2)).toBe(false);
    expect(journal.recentFills(10).map((f) => f.fillId)).toEqual(['f1']);
  });

  it('keys fills by account and fill id: another account may carry the same id', () => {
    const other = '0x00000000000000000000000000000000000000BB';
    expect(journal.recordFill(ACCOUNT, fill('7', '0.001'), 'venue', 1)).toBe(true);
    expect(journal.recordFill(other, fill('7', '0.002'), 'venue', 2)).toBe(true);
    expect(journal.recordFill(other.toLowerCase(), fill('7', '0.002'), 'history', 3)).toBe(false);
    expect(journal.hasFill(ACCOUNT, '7')).toBe(true);
    expect(journal.hasFill(other, '7')).toBe(true);
    expect(journal.hasFill(other, '8')).toBe(false);
    expect(journal.fillsOfOrder(ACCOUNT, '0xabc').map((f) => [f.fillId, f.size])).toEqual([['7', '0.001']]);
    expect(journal.fillsOfOrder(other, '0xabc').map((f) => [f.fillId, f.size])).toEqual([['7', '0.002']]);
  });

  it("takes a real fill off its own account's inferred fill only", () => {
    const other = '0x00000000000000000000000000000000000000bb';
    journal.recordFill(ACCOUNT, fill(reconciledFillId('0xabc'), '0.002'), 'reconciled', 1);
    journal.recordFill(other, fill(reconciledFillId('0xabc'), '0.002'), 'reconciled', 1);
    journal.recordFill(other, fill('f1', '0.0005'), 'venue', 2);
    expect(journal.fillsOfOrder(ACCOUNT, '0xabc').map((f) => f.size)).toEqual(['0.002']);
    expect(journal.fillsOfOrder(other, '0xabc').map((f) => f.size)).toEqual(['0.0015', '0.0005']);
  });

  it('lets a late venue fill take its size off the inferred fill of the same order', () => {
    journal.recordFill(ACCOUNT, fill(reconciledFillId('0xABC'), '0.002'), 'reconciled', 1);
    journal.recordFill(ACCOUNT, fill('f1', '0.0005'), 'venue', 2);
    expect(journal.fillsOfOrder(ACCOUNT, '0xabc').map((f) => [f.fillId, f.size])).toEqual([
      ['reconciled:0xabc', '0.0015'],
      ['f1', '0.0005'],
    ]);
    journal.recordFill(ACCOUNT, fill('f2', '0.0015'), 'venue', 3);
    expect(journal.fillsOfOrder(ACCOUNT, '0xabc').map((f) => f.fillId)).toEqual(['f1', 'f2']);
  });

  it('counts fills after a position snapshot of a source', () => {
    journal.recordFill(ACCOUNT, fill('f1', '0.001'), 'venue', 1);
    journal.recordPosition(ACCOUNT, { marketId: 1, side: 'buy', size: '0.001' }, 'base', 2);
    journal.recordPosition(ACCOUNT, { marketId: 1, side: 'buy', size: '0.001' }, 'venue', 2);
    journal.recordFill(ACCOUNT, fill('f2', '0.001'), 'venue', 3);
    const base = journal.latestPosition(ACCOUNT, 1, 'base');
    expect(base).toMatchObject({ size: '0.001', fillSeq: 1, source: 'base' });
    expect(journal.fillsAfter(ACCOUNT, 1, base!.fillSeq).map((f) => f.fillId)).toEqual(['f2']);
  });

  it('keeps balance snapshots per account and reads the latest', () => {
    expect(journal.latestBalance(ACCOUNT)).toBeUndefined();
    journal.recordBalance(ACCOUNT, '1000', 'start', 1);
    journal.recordBalance(ACCOUNT, '-12.5', 'reconnect', 2);
    journal.recordBalance('0x00000000000000000000000000000000000000bb', '7', 'start', 3);
    expect(journal.latestBalance(ACCOUNT.toLowerCase())).toEqual({ balance: '-12.5', source: 'reconnect', atMs: 2 });
  });

  it('stores strategy state per account and strategy', () => {
    journal.saveStrategyState(ACCOUNT, 'mm', 'cursor', '{"n":1}', 1);
    journal.saveStrategyState(ACCOUNT, 'mm', 'cursor', '{"n":2}', 2);
    expect(journal.loadStrategyState(ACCOUNT, 'mm', 'cursor')).toBe('{"n":2}');
    expect(journal.loadStrategyState(ACCOUNT, 'grid', 'cursor')).toBeUndefined();
    journal.deleteStrategyState(ACCOUNT, 'mm', 'cursor');
    expect(journal.loadStrategyState(ACCOUNT, 'mm', 'cursor')).toBeUndefined();
  });

  it('says where fills may be missing from: the last real fill, an earlier unreconciled reconnect, or the first run', () => {
    // A new journal: nothing to read back to.
    expect(journal.fillsMissingSince(ACCOUNT, 'now')).toBeUndefined();
    journal.beginRun(ACCOUNT, 'first', 100);
    journal.beginRun(ACCOUNT, 'now', 900);
    // No fill yet: since the first run other than this one (earlier fills are the base position's).
    expect(journal.fillsMissingSince(ACCOUNT, 'now')).toBe(100);
    journal.recordFill(ACCOUNT, fill('f1', '0.001'), 'venue', 500);
    journal.recordFill(ACCOUNT, fill(reconciledFillId('0xdef'), '0.001', '0xdef'), 'reconciled', 700);
    // Inferred fills are no evidence of what was seen.
    expect(journal.fillsMissingSince(ACCOUNT, 'now')).toBe(500);
    journal.openFillGap(ACCOUNT, 300);
    expect(journal.fillsMissingSince(ACCOUNT, 'now')).toBe(300);
    journal.closeFillGaps(ACCOUNT, 300, 800);
    expect(journal.fillsMissingSince(ACCOUNT, 'now')).toBe(500);
    expect(journal.fillsMissingSince('0x00000000000000000000000000000000000000bb')).toBeUndefined();
  });
});

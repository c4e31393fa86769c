import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/journal/journalMigrations.js';
import { openJournal } from '../../src/journal/openJournal.js';

const ALICE = '0x00000000000000000000000000000000000000aa';
const BOB = '0x00000000000000000000000000000000000000bb';
/** The version whose fills table keyed fills by fill id alone (UNIQUE fill_id). */
const FILL_ID_ALONE = 4;
/** The last version whose refused orders and outcomes carried the older word. */
const OLD_REFUSAL_WORD = 5;
/** The last version whose orders in flight carried the older state name. */
const OLD_SUBMITTED_WORD = 6;

/** A journal file exactly as a perpbot of schema version 4 left it, with fills of two accounts. */
function writeOldJournal(path: string): void {
  const db = new Database(path);
  try {
    for (const sql of MIGRATIONS.slice(0, FILL_ID_ALONE)) db.exec(sql);
    db.exec('CREATE TABLE schema_version (version INTEGER NOT NULL)');
    db.prepare('INSERT INTO schema_version (version) VALUES (?)').run(FILL_ID_ALONE);
    const insert = db.prepare(
      `INSERT INTO fills (seq, fill_id, account, market_id, order_id, intent_id, strategy, side, price, size, fee, liquidity, source, at_ms)
       VALUES (?, ?, ?, 1, ?, ?, 'mm', 'buy', '64000', ?, '0.01', 'MAKER', ?, ?)`,
    );
    insert.run(3, '1', ALICE, '0xa1', 'i1', '0.001', 'venue', 100);
    insert.run(5, '2', BOB.toUpperCase().replace('0X', '0x'), '0xb1', null, '0.002', 'history', 200);
    insert.run(9, 'reconciled:0xa2', ALICE, '0xa2', 'i2', '0.003', 'reconciled', 300);
    db.prepare(
      "INSERT INTO positions (account, market_id, side, size, source, fill_seq, at_ms) VALUES (?, 1, 'buy', '0.001', 'base', 9, 400)",
    ).run(ALICE);
    // The old key at work: Bob's fill "1" was dropped as Alice's.
    expect(
      db
        .prepare(
          "INSERT OR IGNORE INTO fills (fill_id, account, market_id, order_id, side, price, size, source, at_ms) VALUES ('1', ?, 1, '0xb2', 'sell', '1', '1', 'venue', 1)",
        )
        .run(BOB).changes,
    ).toBe(0);
  } finally {
    db.close();
  }
}

/** A version-5 journal with an order refused by the checks (stored under the old state) beside an open one. */
function writeOldRefusals(path: string): void {
  const db = new Database(path);
  try {
    for (const sql of MIGRATIONS.slice(0, OLD_REFUSAL_WORD)) db.exec(sql);
    db.exec('CREATE TABLE schema_version (version INTEGER NOT NULL)');
    db.prepare('INSERT INTO schema_version (version) VALUES (?)').run(OLD_REFUSAL_WORD);
    const order = db.prepare(
      `INSERT INTO orders (intent_id, account, strategy, market_id, side, size, price, state, filled_size, updated_ms)
       VALUES (?, ?, 'mm', 1, 'buy', '0.001', '64000', ?, '0', 100)`,
    );
    order.run('refused-1', ALICE, 'rejected'); // refusal-rename: keep
    order.run('open-1', ALICE, 'open');
    db.prepare(
      "INSERT INTO order_states (intent_id, state, filled_size, source, at_ms) VALUES ('refused-1', ?, '0', 'local', 100)",
    ).run('rejected'); // refusal-rename: keep
    const outcome = { type: 'refused', rejection: { rule: 'price_tick', value: '1.5', reason: 'off the grid' } }; // refusal-rename: keep
    db.prepare(
      `INSERT INTO intents (intent_id, account, run_id, strategy, kind, market_id, intent, received_ms, outcome_type, outcome, outcome_ms)
       VALUES ('refused-1', ?, 'run-1', 'mm', 'placeLimit', 1, '{}', 100, 'refused', ?, 100)`,
    ).run(ALICE, JSON.stringify(outcome));
  } finally {
    db.close();
  }
}

/** A version-6 journal with an order in flight stored under the older state name, beside an open one. */
function writeOldInFlight(path: string): void {
  const db = new Database(path);
  try {
    for (const sql of MIGRATIONS.slice(0, OLD_SUBMITTED_WORD)) db.exec(sql);
    db.exec('CREATE TABLE schema_version (version INTEGER NOT NULL)');
    db.prepare('INSERT INTO schema_version (version) VALUES (?)').run(OLD_SUBMITTED_WORD);
    const order = db.prepare(
      `INSERT INTO orders (intent_id, account, strategy, market_id, side, size, price, client_order_id, state, filled_size, updated_ms)
       VALUES (?, ?, 'mm', 1, 'buy', '0.001', '64000', ?, ?, '0', 100)`,
    );
    order.run('flying-1', ALICE, '77', 'pending'); // state-rename: keep
    order.run('open-1', ALICE, '78', 'open');
    db.prepare(
      "INSERT INTO order_states (intent_id, state, filled_size, source, at_ms) VALUES ('flying-1', ?, '0', 'local', 100)",
    ).run('pending'); // state-rename: keep
  } finally {
    db.close();
  }
}

describe('journal migrations', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'perpbot-migrations-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('rebuilds the fills table of a version-4 journal keyed by (account, fill id), every row and seq kept', () => {
    const path = join(dir, 'old.sqlite');
    writeOldJournal(path);
    const journal = openJournal(path);
    try {
      expect(journal.db.prepare('SELECT version FROM schema_version').get()).toEqual({ version: MIGRATIONS.length });
      expect(
        journal.db.prepare('SELECT seq, fill_id, account, order_id, size, source FROM fills ORDER BY seq').all(),
      ).toEqual([
        { seq: 3, fill_id: '1', account: ALICE, order_id: '0xa1', size: '0.001', source: 'venue' },
        { seq: 5, fill_id: '2', account: BOB, order_id: '0xb1', size: '0.002', source: 'history' },
        { seq: 9, fill_id: 'reconciled:0xa2', account: ALICE, order_id: '0xa2', size: '0.003', source: 'reconciled' },
      ]);
      // The position snapshot's fill_seq still points at the same fill.
      expect(journal.fillsAfter(ALICE, 1, journal.latestPosition(ALICE, 1, 'base')!.fillSeq)).toEqual([]);
      expect(journal.hasFill(BOB, '2')).toBe(true);

      // Bob's fill "1" is his own now; Alice's "1" is still hers, once.
      const bobs = { id: '1', marketId: 1, orderId: '0xb2', side: 'sell' as const, price: '64000', size: '0.001' };
      expect(journal.recordFill(BOB, bobs, 'venue', 500)).toBe(true);
      expect(journal.recordFill(ALICE, { ...bobs, orderId: '0xa1' }, 'venue', 501)).toBe(false);
      expect(journal.recentFills(10, BOB).map((f) => [f.seq, f.fillId])).toEqual([
        [10, '1'],
        [5, '2'],
      ]);
      // A real fill of Alice's inferred order still takes its size off the inferred row.
      journal.recordFill(ALICE, { ...bobs, id: 'a2-real', orderId: '0xa2', size: '0.001' }, 'history', 502);
      expect(journal.fillsOfOrder(ALICE, '0xa2').map((f) => [f.fillId, f.size])).toEqual([
        ['reconciled:0xa2', '0.002'],
        ['a2-real', '0.001'],
      ]);
    } finally {
      journal.close();
    }
  });

  it("reads a version-5 journal's refused orders under today's state, so they are not taken for live orders", () => {
    const path = join(dir, 'old.sqlite');
    writeOldRefusals(path);
    const journal = openJournal(path);
    try {
      expect(journal.db.prepare('SELECT state FROM orders ORDER BY intent_id').all()).toEqual([
        { state: 'open' },
        { state: 'refused' },
      ]);
      expect(journal.db.prepare('SELECT state FROM order_states').all()).toEqual([{ state: 'refused' }]);
      expect(journal.liveOrders(ALICE).map((o) => o.intentId)).toEqual(['open-1']);
      const stored = journal.db.prepare('SELECT outcome FROM intents').get() as { outcome: string };
      expect(JSON.parse(stored.outcome)).toEqual({
        type: 'refused',
        refusal: { rule: 'price_tick', value: '1.5', reason: 'off the grid' },
      });
    } finally {
      journal.close();
    }
  });

  it("reads a version-6 journal's orders in flight as submitted, still live", () => {
    const path = join(dir, 'old.sqlite');
    writeOldInFlight(path);
    const journal = openJournal(path);
    try {
      expect(journal.db.prepare('SELECT intent_id, state FROM orders ORDER BY intent_id').all()).toEqual([
        { intent_id: 'flying-1', state: 'submitted' },
        { intent_id: 'open-1', state: 'open' },
      ]);
      expect(journal.db.prepare('SELECT state FROM order_states').all()).toEqual([{ state: 'submitted' }]);
      expect(journal.liveOrders(ALICE).map((o) => [o.intentId, o.state])).toEqual([
        ['flying-1', 'submitted'],
        ['open-1', 'open'],
      ]);
    } finally {
      journal.close();
    }
  });

  it('leaves the rebuilt table with its indexes, and a new journal with the same schema as a migrated one', () => {
    const old = join(dir, 'old.sqlite');
    writeOldJournal(old);
    const schema = (path: string): unknown => {
      const journal = openJournal(path);
      try {
        return journal.db
          .prepare("SELECT type, name, sql FROM sqlite_master WHERE tbl_name = 'fills' ORDER BY type, name")
          .all();
      } finally {
        journal.close();
      }
    };
    const migrated = schema(old);
    expect(migrated).toEqual(schema(join(dir, 'new.sqlite')));
    expect(JSON.stringify(migrated)).toMatch(/UNIQUE \(account, fill_id\)/);
    expect((migrated as { name: string }[]).map((row) => row.name)).toEqual(
      expect.arrayContaining(['fills', 'fills_account', 'fills_order']),
    );
  });
});

import type { Database } from 'better-sqlite3';
import { JournalError } from './journalError.js';

/**
 * The journal's schema, as an append-only list of migrations: migration i brings the file from
 * version i to i + 1. A released migration is never edited; a change is a new entry.
 *
 * Nonce anchors are uint48 and fit SQLite's 64-bit INTEGER exactly (and a JS number, < 2^53);
 * money stays decimal TEXT. Order ids, client order ids and resting ids are TEXT (uint64/uint256).
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE runs (
    run_id TEXT PRIMARY KEY, account TEXT NOT NULL, pid INTEGER, started_ms INTEGER NOT NULL, stopped_ms INTEGER
  );
  CREATE TABLE intents (
    intent_id TEXT PRIMARY KEY, account TEXT NOT NULL, run_id TEXT NOT NULL, strategy TEXT NOT NULL, kind TEXT NOT NULL,
    market_id INTEGER NOT NULL, intent TEXT NOT NULL, received_ms INTEGER NOT NULL,
    outcome_type TEXT, outcome TEXT, outcome_ms INTEGER
  );
  CREATE INDEX intents_open ON intents (account, outcome_type);
  CREATE TABLE nonces (
    account TEXT NOT NULL, anchor INTEGER NOT NULL, bit INTEGER NOT NULL, intent_id TEXT NOT NULL, run_id TEXT NOT NULL,
    PRIMARY KEY (account, anchor, bit)
  );
  CREATE TABLE requests (
    id INTEGER PRIMARY KEY, intent_id TEXT NOT NULL, endpoint TEXT NOT NULL, body TEXT NOT NULL,
    nonce_anchor INTEGER, nonce_bit INTEGER, attempt INTEGER NOT NULL, at_ms INTEGER NOT NULL
  );
  CREATE INDEX requests_intent ON requests (intent_id);
  CREATE TABLE responses (
    id INTEGER PRIMARY KEY, intent_id TEXT NOT NULL, attempt INTEGER NOT NULL, ok INTEGER NOT NULL,
    order_id TEXT, error TEXT, at_ms INTEGER NOT NULL
  );
  CREATE INDEX responses_intent ON responses (intent_id);
  CREATE TABLE orders (
    intent_id TEXT PRIMARY KEY, account TEXT NOT NULL, strategy TEXT NOT NULL, market_id INTEGER NOT NULL,
    side TEXT NOT NULL, size TEXT NOT NULL, price TEXT NOT NULL, client_order_id TEXT, order_id TEXT,
    resting_order_id TEXT, state TEXT NOT NULL, filled_size TEXT NOT NULL, updated_ms INTEGER NOT NULL
  );
  CREATE INDEX orders_order_id ON orders (order_id);
  CREATE INDEX orders_state ON orders (account, state);
  CREATE TABLE order_states (
    id INTEGER PRIMARY KEY, intent_id TEXT NOT NULL, order_id TEXT, state TEXT NOT NULL, filled_size TEXT NOT NULL,
    source TEXT NOT NULL, at_ms INTEGER NOT NULL
  );
  CREATE TABLE fills (
    seq INTEGER PRIMARY KEY, fill_id TEXT NOT NULL UNIQUE, account TEXT NOT NULL, market_id INTEGER NOT NULL,
    order_id TEXT NOT NULL, intent_id TEXT, strategy TEXT, side TEXT NOT NULL, price TEXT NOT NULL, size TEXT NOT NULL,
    fee TEXT, liquidity TEXT, source TEXT NOT NULL, at_ms INTEGER NOT NULL
  );
  CREATE INDEX fills_order ON fills (order_id);
  CREATE TABLE positions (
    id INTEGER PRIMARY KEY, account TEXT NOT NULL, market_id INTEGER NOT NULL, side TEXT NOT NULL, size TEXT NOT NULL,
    avg_entry_price TEXT, margin_mode TEXT, source TEXT NOT NULL, fill_seq INTEGER NOT NULL, at_ms INTEGER NOT NULL
  );
  CREATE INDEX positions_latest ON positions (account, market_id, id);
  CREATE TABLE strategy_state (
    account TEXT NOT NULL, strategy TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, updated_ms INTEGER NOT NULL,
    PRIMARY KEY (account, strategy, key)
  );
  CREATE TABLE reconciliations (
    id INTEGER PRIMARY KEY, account TEXT NOT NULL, run_id TEXT, trigger TEXT NOT NULL, ok INTEGER NOT NULL,
    differences TEXT NOT NULL, at_ms INTEGER NOT NULL
  );
  `,
  // Reconciliation reads each order's latest state change.
  `CREATE INDEX order_states_intent ON order_states (intent_id, id);`,
  // Cross-margin balance snapshots (decimal TEXT, may be negative), one per reconciliation.
  `
  CREATE TABLE balances (
    id INTEGER PRIMARY KEY, account TEXT NOT NULL, balance TEXT NOT NULL, source TEXT NOT NULL, at_ms INTEGER NOT NULL
  );
  CREATE INDEX balances_latest ON balances (account, id);
  `,
  // Windows since which fills may be missing (a reconnect not yet reconciled from history): the
  // next start reads the venue's trade history back to the earliest one still open.
  `
  CREATE TABLE IF NOT EXISTS fill_gaps (
    id INTEGER PRIMARY KEY, account TEXT NOT NULL, since_ms INTEGER NOT NULL, closed_ms INTEGER
  );
  CREATE INDEX IF NOT EXISTS fill_gaps_open ON fill_gaps (account, closed_ms);
  CREATE INDEX IF NOT EXISTS fills_account ON fills (account, seq);
  `,
  // A fill is identified by (account, fill id): the venue numbers fills per venue, not per
  // journal, and a journal shared by several accounts (one per `npm start` on the embedded
  // simulator) dropped the second account's fills as duplicates of the first's. SQLite cannot
  // drop a UNIQUE constraint, so the table is rebuilt; every row already carries its account
  // (NOT NULL since the first version), and seq is kept (positions.fill_seq points at it).
  `
  CREATE TABLE fills_by_account (
    seq INTEGER PRIMARY KEY, fill_id TEXT NOT NULL, account TEXT NOT NULL, market_id INTEGER NOT NULL,
    order_id TEXT NOT NULL, intent_id TEXT, strategy TEXT, side TEXT NOT NULL, price TEXT NOT NULL, size TEXT NOT NULL,
    fee TEXT, liquidity TEXT, source TEXT NOT NULL, at_ms INTEGER NOT NULL,
    UNIQUE (account, fill_id)
  );
  INSERT INTO fills_by_account (seq, fill_id, account, market_id, order_id, intent_id, strategy, side, price, size, fee, liquidity, source, at_ms)
    SELECT seq, fill_id, lower(account), market_id, order_id, intent_id, strategy, side, price, size, fee, liquidity, source, at_ms
    FROM fills ORDER BY seq;
  DROP TABLE fills;
  ALTER TABLE fills_by_account RENAME TO fills;
  CREATE INDEX fills_order ON fills (account, order_id);
  CREATE INDEX fills_account ON fills (account, seq);
  `,
  // One word for a refusal: the order state `refused` and a refused outcome's `refusal` had older
  // names in files written before; rewritten so an old row reads like a new one (a row under the
  // old state would otherwise count as a live order). The old words stay in the SQL on purpose.
  `
  UPDATE orders SET state = 'refused' WHERE state = 'rejected'; -- refusal-rename: keep
  UPDATE order_states SET state = 'refused' WHERE state = 'rejected'; -- refusal-rename: keep
  UPDATE intents SET outcome = replace(outcome, '"rejection":', '"refusal":') -- refusal-rename: keep
    WHERE outcome_type = 'refused';
  `,
  // One name per order state: an order admitted and on its way is \`submitted\` (the name of its
  // event); files written before stored it under an older name, rewritten so an old in-flight row
  // reads like a new one. The old word stays in the SQL on purpose.
  `
  UPDATE orders SET state = 'submitted' WHERE state = 'pending'; -- state-rename: keep
  UPDATE order_states SET state = 'submitted' WHERE state = 'pending'; -- state-rename: keep
  `,
  // The venue's TP/SL orders the protection keeper placed (src/engine/protection), each row their
  // latest version: what a restart adopts, and how an execution's fill finds its strategy; and the
  // OperatorHub allowances setup granted (approve-single), which the executions spend.
  `
  CREATE TABLE IF NOT EXISTS tpsl_orders (
    id TEXT PRIMARY KEY, account TEXT NOT NULL, strategy TEXT NOT NULL, market_id INTEGER NOT NULL, role TEXT NOT NULL,
    side TEXT NOT NULL, size TEXT NOT NULL, stop_price TEXT NOT NULL, trigger TEXT NOT NULL, state TEXT NOT NULL,
    venue_id TEXT, filled_size TEXT NOT NULL, triggered_price TEXT, execution_tx TEXT, reason TEXT,
    created_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL
  );
  CREATE INDEX IF NOT EXISTS tpsl_orders_state ON tpsl_orders (account, state);
  CREATE TABLE IF NOT EXISTS operator_allowances (
    id INTEGER PRIMARY KEY, account TEXT NOT NULL, operator TEXT NOT NULL, budget_wei TEXT NOT NULL,
    expiry_s INTEGER NOT NULL, tx_hash TEXT, at_ms INTEGER NOT NULL
  );
  `,
];

/** Brings the file to the newest schema, each step in its own transaction. */
export function migrate(db: Database, path: string): number {
  db.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)');
  const row = db.prepare('SELECT version FROM schema_version').get() as { version: number } | undefined;
  let version = row?.version ?? 0;
  if (row === undefined) db.prepare('INSERT INTO schema_version (version) VALUES (0)').run();
  if (version > MIGRATIONS.length) {
    throw new JournalError(
      `the journal ${path} has schema version ${version}, newer than this perpbot knows (${MIGRATIONS.length})`,
      {
        code: 'JOURNAL_VERSION',
        details: { path, version, known: MIGRATIONS.length },
        hints: ['upgrade perpbot, or point journal.path at another file'],
      },
    );
  }
  while (version < MIGRATIONS.length) {
    const sql = MIGRATIONS[version];
    if (sql === undefined) break;
    db.transaction(() => {
      db.exec(sql);
      db.prepare('UPDATE schema_version SET version = ?').run(version + 1);
    })();
    version += 1;
  }
  return version;
}

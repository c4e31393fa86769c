import Database from 'better-sqlite3';

/**
 * What the bot's journal says about one account, read with plain SQL from the SQLite file (read
 * only), not through the journal code it audits: only the table and column names are shared.
 */
export interface JournalFillRow {
  readonly fillId: string;
  readonly orderId: string;
  readonly marketId: number;
  readonly size: string;
  /** venue (a fill the bot was told of) or reconciled (inferred by a reconciliation). */
  readonly source: string;
}

/** An intent whose journaled outcome is `failed`, with the venue error kind when it has one. */
export interface FailedIntent {
  readonly intentId: string;
  readonly kind?: string;
  readonly code: string;
  readonly message: string;
}

export interface JournalPosition {
  readonly marketId: number;
  readonly side: string;
  readonly size: string;
  readonly atMs: number;
}

export interface JournalTruth {
  readonly fills: readonly JournalFillRow[];
  readonly failedIntents: readonly FailedIntent[];
  /** The latest position row of each market. */
  readonly positions: readonly JournalPosition[];
  /** The latest balance snapshot. */
  readonly balance?: { readonly balance: string; readonly atMs: number };
  readonly intents: number;
}

type Row = Record<string, unknown>;

export function readJournalTruth(path: string, account: string): JournalTruth {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const who = account.toLowerCase();
    const all = (sql: string): Row[] => db.prepare(sql).all(who) as Row[];
    const fills = all(
      'SELECT fill_id, order_id, market_id, size, source FROM fills WHERE account = ? ORDER BY seq',
    ).map((r): JournalFillRow => ({
      fillId: String(r['fill_id']),
      orderId: String(r['order_id']).toLowerCase(),
      marketId: Number(r['market_id']),
      size: String(r['size']),
      source: String(r['source']),
    }));
    const failedIntents = all(
      "SELECT intent_id, outcome FROM intents WHERE account = ? AND outcome_type = 'failed' ORDER BY rowid",
    ).map((r) => failedIntentOf(String(r['intent_id']), r['outcome']));
    const positions = all(
      'SELECT market_id, side, size, at_ms FROM positions p WHERE account = ? AND id = (SELECT MAX(id) FROM positions q WHERE q.account = p.account AND q.market_id = p.market_id) ORDER BY market_id',
    ).map((r): JournalPosition => ({
      marketId: Number(r['market_id']),
      side: String(r['side']),
      size: String(r['size']),
      atMs: Number(r['at_ms']),
    }));
    const balanceRow = all('SELECT balance, at_ms FROM balances WHERE account = ? ORDER BY id DESC LIMIT 1')[0];
    const intents = Number(all('SELECT COUNT(*) AS n FROM intents WHERE account = ?')[0]?.['n'] ?? 0);
    return {
      fills,
      failedIntents,
      positions,
      ...(balanceRow === undefined
        ? {}
        : { balance: { balance: String(balanceRow['balance']), atMs: Number(balanceRow['at_ms']) } }),
      intents,
    };
  } finally {
    db.close();
  }
}

/** The outcome column is the outcome as JSON: `{type: 'failed', error: {code, kind?, message}}`. */
export function failedIntentOf(intentId: string, outcome: unknown): FailedIntent {
  let error: Row = {};
  try {
    const parsed = JSON.parse(String(outcome)) as Row;
    if (parsed['error'] !== null && typeof parsed['error'] === 'object') error = parsed['error'] as Row;
  } catch {
    // An unreadable outcome is reported with an empty code; the audit still counts the intent.
  }
  const kind = error['kind'];
  return {
    intentId,
    code: textOf(error['code']),
    message: textOf(error['message']),
    ...(typeof kind === 'string' ? { kind } : {}),
  };
}

/** A JSON value as text: a string as it is, nothing as empty, anything else as its JSON. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  return value === undefined || value === null ? '' : JSON.stringify(value);
}

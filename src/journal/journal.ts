import type { TrackedFill } from '../engine/tracking/orderTracker.js';
import type { Database, Statement } from 'better-sqlite3';
import { addDecimals, compareDecimals, negateDecimal } from '../core/decimal.js';
import type { IntentOutcome } from '../engine/intents/intentOutcome.js';
import type { Intent } from '../engine/intents/intents.js';
import type { NoncePair } from '../engine/nonces/noncePair.js';
import type { OrderState } from '../engine/tracking/orderTracker.js';
import { TERMINAL_STATES } from '../engine/orders/orderState.js';
import type { Side } from '../engine/intents/intents.js';
import {
  fillFromRow,
  orderFromRow,
  type FillSource,
  type InFlightIntent,
  type JournalBalance,
  type JournalFill,
  type JournalOrder,
  type JournalPosition,
  type JournalRequest,
} from './journalRows.js';
import { optionalTextColumn, textColumn, type Row } from './sqliteRow.js';

/** An order's current state as the journal takes it (`Journal.recordOrder`). */
export interface OrderWrite {
  readonly intentId: string;
  readonly strategy: string;
  readonly marketId: number;
  readonly side: Side;
  readonly size: string;
  readonly price: string;
  readonly clientOrderId?: bigint | string;
  readonly orderId?: string;
  readonly restingOrderId?: bigint | string;
  readonly state: OrderState;
  readonly filledSize: string;
}

/** A fill as journaled: the tracker's fill, where fee and liquidity may be unknown (inferred fills). */
export type FillWrite = Omit<TrackedFill, 'fee' | 'liquidity'> & { readonly fee?: string; readonly liquidity?: string };

/** A position snapshot as the journal takes it (`Journal.recordPosition`). */
export interface PositionWrite {
  readonly marketId: number;
  readonly side: Side;
  readonly size: string;
  readonly avgEntryPrice?: string;
  readonly marginMode?: string;
}

/** The fill id of the inferred fill that stands for what the fills channel missed of an order. */
export function reconciledFillId(orderId: string): string {
  return `reconciled:${orderId.toLowerCase()}`;
}

/** JSON with bigints as decimal strings (intents carry client order ids and amounts as bigint). */
export function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

/**
 * The bot's write-ahead journal in SQLite: runs, intents, nonces, requests, orders, fills,
 * positions and balances of one or more accounts, over an open file (see `openJournal`), each
 * written (and fsynced) before the engine acts on it, so a restart after `kill -9` knows every
 * nonce it used and every order it may have placed. Every write is its own committed transaction
 * by the time the method returns, because callers act right after it (sign, send, tell a strategy).
 */
export class Journal {
  private readonly statements = new Map<string, Statement>();

  constructor(
    readonly db: Database,
    readonly path: string,
    /** A drill (`journalWriteFault`): while it answers a reason, every write fails with SQLITE_FULL. */
    private readonly writeFault?: () => string | undefined,
  ) {}

  close(): void {
    if (this.db.open) this.db.close();
  }

  beginRun(account: string, runId: string, atMs: number): void {
    this.run(
      'INSERT OR REPLACE INTO runs (run_id, account, pid, started_ms) VALUES (?, ?, ?, ?)',
      runId,
      account.toLowerCase(),
      process.pid,
      atMs,
    );
  }

  endRun(runId: string, atMs: number): void {
    this.run('UPDATE runs SET stopped_ms = ? WHERE run_id = ?', atMs, runId);
  }

  recordIntent(account: string, runId: string, intent: Intent, atMs: number): void {
    this.run(
      'INSERT OR IGNORE INTO intents (intent_id, account, run_id, strategy, kind, market_id, intent, received_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      intent.intentId,
      account.toLowerCase(),
      runId,
      intent.strategy,
      intent.kind,
      intent.marketId,
      toJson(intent),
      atMs,
    );
  }

  recordNonce(account: string, runId: string, pair: NoncePair, intentId: string): void {
    this.run(
      'INSERT OR IGNORE INTO nonces (account, anchor, bit, intent_id, run_id) VALUES (?, ?, ?, ?, ?)',
      account.toLowerCase(),
      Number(pair.anchor),
      pair.bit,
      intentId,
      runId,
    );
  }

  recordRequest(entry: {
    intentId: string;
    endpoint: string;
    body: Readonly<Record<string, unknown>>;
    nonce?: NoncePair;
    attempt: number;
    atMs: number;
  }): void {
    this.run(
      'INSERT INTO requests (intent_id, endpoint, body, nonce_anchor, nonce_bit, attempt, at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)',
      entry.intentId,
      entry.endpoint,
      toJson(entry.body),
      entry.nonce === undefined ? null : Number(entry.nonce.anchor),
      entry.nonce?.bit ?? null,
      entry.attempt,
      entry.atMs,
    );
  }

  recordResponse(entry: {
    intentId: string;
    attempt: number;
    ok: boolean;
    orderId?: string;
    error?: string;
    atMs: number;
  }): void {
    this.run(
      'INSERT INTO responses (intent_id, attempt, ok, order_id, error, at_ms) VALUES (?, ?, ?, ?, ?, ?)',
      entry.intentId,
      entry.attempt,
      entry.ok ? 1 : 0,
      entry.orderId ?? null,
      entry.error ?? null,
      entry.atMs,
    );
  }

  /** A terminal outcome (an `unknown` one is not terminal and leaves the intent in flight). */
  recordOutcome(outcome: IntentOutcome): void {
    if (outcome.type === 'unknown') return;
    this.run(
      'UPDATE intents SET outcome_type = ?, outcome = ?, outcome_ms = ? WHERE intent_id = ?',
      outcome.type,
      toJson(outcome),
      outcome.atMs,
      outcome.intentId,
    );
  }

  /** The order's current state, and a history row when its state or filled size changed. */
  recordOrder(account: string, order: OrderWrite, source: string, atMs: number): void {
    this.db.transaction(() => {
      const before = this.get('SELECT state, filled_size FROM orders WHERE intent_id = ?', order.intentId);
      this.run(
        `INSERT INTO orders (intent_id, account, strategy, market_id, side, size, price, client_order_id, order_id, resting_order_id, state, filled_size, updated_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (intent_id) DO UPDATE SET client_order_id = COALESCE(excluded.client_order_id, client_order_id),
           order_id = COALESCE(excluded.order_id, order_id), resting_order_id = COALESCE(excluded.resting_order_id, resting_order_id),
           state = excluded.state, filled_size = excluded.filled_size, updated_ms = excluded.updated_ms`,
        order.intentId,
        account.toLowerCase(),
        order.strategy,
        order.marketId,
        order.side,
        order.size,
        order.price,
        order.clientOrderId?.toString() ?? null,
        order.orderId?.toLowerCase() ?? null,
        order.restingOrderId?.toString() ?? null,
        order.state,
        order.filledSize,
        atMs,
      );
      if (before === undefined || before['state'] !== order.state || before['filled_size'] !== order.filledSize) {
        this.run(
          'INSERT INTO order_states (intent_id, order_id, state, filled_size, source, at_ms) VALUES (?, ?, ?, ?, ?, ?)',
          order.intentId,
          order.orderId?.toLowerCase() ?? null,
          order.state,
          order.filledSize,
          source,
          atMs,
        );
      }
    })();
  }

  /**
   * A fill, once per (account, fill id): the one place that decides whether a fill is new (the
   * engine's tracker asks it through `journalFillLedger`; reconciliation journals history fills
   * through it too). The account is part of the key because fill ids are the venue's, and one
   * journal may serve several accounts (each `npm start` on the embedded simulator makes one).
   * A real fill (channel or history) of an order that carries an inferred (`reconciled`) fill
   * takes that much off it: the inferred row only ever stands for what nothing else showed.
   * Returns false when the account's fill id was journaled before, whatever its source.
   */
  recordFill(account: string, fill: FillWrite, source: FillSource, atMs: number): boolean {
    const key = account.toLowerCase();
    return this.db.transaction(() => {
      const inserted =
        this.run(
          `INSERT OR IGNORE INTO fills (fill_id, account, market_id, order_id, intent_id, strategy, side, price, size, fee, liquidity, source, at_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          fill.id,
          key,
          fill.marketId,
          fill.orderId.toLowerCase(),
          fill.intentId ?? null,
          fill.strategy ?? null,
          fill.side,
          fill.price,
          fill.size,
          fill.fee ?? null,
          fill.liquidity ?? null,
          source,
          atMs,
        ).changes > 0;
      if (inserted && source !== 'reconciled') this.takeOffInferred(key, fill.orderId, fill.size);
      return inserted;
    })();
  }

  /** A real fill of `size` of the order: its inferred row shrinks by that much, or goes. */
  private takeOffInferred(account: string, orderId: string, size: string): void {
    const inferredId = reconciledFillId(orderId);
    const inferred = this.get('SELECT size FROM fills WHERE account = ? AND fill_id = ?', account, inferredId);
    if (inferred === undefined) return;
    const rest = addDecimals(textColumn(inferred, 'size'), negateDecimal(size));
    if (compareDecimals(rest, '0') <= 0)
      this.run('DELETE FROM fills WHERE account = ? AND fill_id = ?', account, inferredId);
    else this.run('UPDATE fills SET size = ? WHERE account = ? AND fill_id = ?', rest, account, inferredId);
  }

  /** Whether the account's fill of this id is journaled (fill ids are unique per account, not per journal). */
  hasFill(account: string, fillId: string): boolean {
    return (
      this.get('SELECT 1 AS found FROM fills WHERE account = ? AND fill_id = ?', account.toLowerCase(), fillId) !==
      undefined
    );
  }

  /**
   * Where fills of the account may be missing from: the earliest reconnect window not reconciled
   * from the venue's history yet, or else the last real fill journaled (anything newer was not
   * seen). Without any fill: the first run of the account other than `currentRunId` (fills before
   * the journal existed are the base position's, not ours to count); undefined for a new journal.
   */
  fillsMissingSince(account: string, currentRunId?: string): number | undefined {
    const key = account.toLowerCase();
    const number = (row: Row | undefined): number | undefined =>
      row === undefined || row['v'] === null ? undefined : Number(row['v']);
    const gap = number(
      this.get('SELECT MIN(since_ms) AS v FROM fill_gaps WHERE account = ? AND closed_ms IS NULL', key),
    );
    const watched =
      number(this.get("SELECT MAX(at_ms) AS v FROM fills WHERE account = ? AND source != 'reconciled'", key)) ??
      number(
        this.get('SELECT MIN(started_ms) AS v FROM runs WHERE account = ? AND run_id != ?', key, currentRunId ?? ''),
      ) ??
      number(this.get('SELECT MIN(received_ms) AS v FROM intents WHERE account = ?', key));
    if (gap === undefined) return watched;
    return watched === undefined ? gap : Math.min(gap, watched);
  }

  /** A reconnect: fills since `sinceMs` may be missing until a reconciliation reads them from history. */
  openFillGap(account: string, sinceMs: number): void {
    this.run('INSERT INTO fill_gaps (account, since_ms) VALUES (?, ?)', account.toLowerCase(), sinceMs);
  }

  /** Fills since `sinceMs` were read from the venue's history: the windows that start there or later are closed. */
  closeFillGaps(account: string, sinceMs: number, atMs: number): void {
    this.run(
      'UPDATE fill_gaps SET closed_ms = ? WHERE account = ? AND closed_ms IS NULL AND since_ms >= ?',
      atMs,
      account.toLowerCase(),
      sinceMs,
    );
  }

  /** The journaled order with this client_order_id, the latest when several. */
  orderByClientOrderId(account: string, clientOrderId: string): JournalOrder | undefined {
    const row = this.get(
      'SELECT * FROM orders WHERE account = ? AND client_order_id = ? ORDER BY updated_ms DESC LIMIT 1',
      account.toLowerCase(),
      clientOrderId,
    );
    return row === undefined ? undefined : orderFromRow(row);
  }

  recordPosition(account: string, position: PositionWrite, source: string, atMs: number): void {
    const seq = this.get('SELECT COALESCE(MAX(seq), 0) AS seq FROM fills')?.['seq'] ?? 0;
    this.run(
      'INSERT INTO positions (account, market_id, side, size, avg_entry_price, margin_mode, source, fill_seq, at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      account.toLowerCase(),
      position.marketId,
      position.side,
      position.size,
      position.avgEntryPrice ?? null,
      position.marginMode ?? null,
      source,
      seq,
      atMs,
    );
  }

  recordBalance(account: string, balance: string, source: string, atMs: number): void {
    this.run(
      'INSERT INTO balances (account, balance, source, at_ms) VALUES (?, ?, ?, ?)',
      account.toLowerCase(),
      balance,
      source,
      atMs,
    );
  }

  /** The last balance snapshot journaled for the account. */
  latestBalance(account: string): JournalBalance | undefined {
    const row = this.get(
      'SELECT balance, source, at_ms FROM balances WHERE account = ? ORDER BY id DESC LIMIT 1',
      account.toLowerCase(),
    );
    return row === undefined
      ? undefined
      : { balance: textColumn(row, 'balance'), source: textColumn(row, 'source'), atMs: Number(row['at_ms']) };
  }

  recordReconciliation(
    account: string,
    runId: string | undefined,
    trigger: string,
    ok: boolean,
    differences: unknown,
    atMs: number,
  ): void {
    this.run(
      'INSERT INTO reconciliations (account, run_id, trigger, ok, differences, at_ms) VALUES (?, ?, ?, ?, ?, ?)',
      account.toLowerCase(),
      runId ?? null,
      trigger,
      ok ? 1 : 0,
      toJson(differences),
      atMs,
    );
  }

  saveStrategyState(account: string, strategy: string, key: string, json: string, atMs: number): void {
    this.run(
      'INSERT INTO strategy_state (account, strategy, key, value, updated_ms) VALUES (?, ?, ?, ?, ?) ON CONFLICT (account, strategy, key) DO UPDATE SET value = excluded.value, updated_ms = excluded.updated_ms',
      account.toLowerCase(),
      strategy,
      key,
      json,
      atMs,
    );
  }

  loadStrategyState(account: string, strategy: string, key: string): string | undefined {
    const row = this.get(
      'SELECT value FROM strategy_state WHERE account = ? AND strategy = ? AND key = ?',
      account.toLowerCase(),
      strategy,
      key,
    );
    return row === undefined ? undefined : textColumn(row, 'value');
  }

  deleteStrategyState(account: string, strategy: string, key: string): void {
    this.run(
      'DELETE FROM strategy_state WHERE account = ? AND strategy = ? AND key = ?',
      account.toLowerCase(),
      strategy,
      key,
    );
  }

  /** The highest nonce pair ever handed out for the account (a restart resumes above it). */
  nonceHighWater(account: string): NoncePair | undefined {
    const row = this.get(
      'SELECT anchor, bit FROM nonces WHERE account = ? ORDER BY anchor DESC, bit DESC LIMIT 1',
      account.toLowerCase(),
    );
    return row === undefined ? undefined : { anchor: BigInt(row['anchor'] as number), bit: row['bit'] as number };
  }

  /** Intents with no terminal outcome, oldest first, with their requests and order. */
  inFlightIntents(account: string): InFlightIntent[] {
    return this.all(
      'SELECT * FROM intents WHERE account = ? AND outcome_type IS NULL ORDER BY received_ms, rowid',
      account.toLowerCase(),
    ).map((row) => {
      const intentId = textColumn(row, 'intent_id');
      const order = this.order(intentId);
      return {
        intentId,
        runId: textColumn(row, 'run_id'),
        strategy: textColumn(row, 'strategy'),
        kind: textColumn(row, 'kind'),
        marketId: Number(row['market_id']),
        receivedMs: Number(row['received_ms']),
        intent: JSON.parse(textColumn(row, 'intent')) as Record<string, unknown>,
        requests: this.requestsOf(intentId),
        ...(order === undefined ? {} : { order }),
      };
    });
  }

  requestsOf(intentId: string): JournalRequest[] {
    return this.all('SELECT * FROM requests WHERE intent_id = ? ORDER BY id', intentId).map((row) => ({
      endpoint: textColumn(row, 'endpoint'),
      body: JSON.parse(textColumn(row, 'body')) as Record<string, unknown>,
      ...(row['nonce_anchor'] === null
        ? {}
        : { nonce: { anchor: BigInt(row['nonce_anchor'] as number), bit: Number(row['nonce_bit']) } }),
      attempt: Number(row['attempt']),
      atMs: Number(row['at_ms']),
    }));
  }

  orderByOrderId(orderId: string): JournalOrder | undefined {
    const row = this.get(
      'SELECT * FROM orders WHERE order_id = ? ORDER BY updated_ms DESC LIMIT 1',
      orderId.toLowerCase(),
    );
    return row === undefined ? undefined : orderFromRow(row);
  }

  /** Orders whose latest state change, at or after `sinceMs`, was to `state` by `source`. */
  ordersClosedSince(account: string, state: OrderState, source: string, sinceMs: number): JournalOrder[] {
    return this.all(
      `SELECT o.* FROM orders o WHERE o.account = ? AND o.state = ? AND
         (SELECT s.source || '|' || s.at_ms FROM order_states s WHERE s.intent_id = o.intent_id ORDER BY s.id DESC LIMIT 1) IS NOT NULL AND
         (SELECT s.source FROM order_states s WHERE s.intent_id = o.intent_id ORDER BY s.id DESC LIMIT 1) = ? AND
         (SELECT s.at_ms FROM order_states s WHERE s.intent_id = o.intent_id ORDER BY s.id DESC LIMIT 1) >= ?`,
      account.toLowerCase(),
      state,
      source,
      sinceMs,
    ).map(orderFromRow);
  }

  /** Intent ids and order ids (lower case) that accepted cancel intents of the account targeted. */
  acceptedCancelTargets(account: string): Set<string> {
    const targets = new Set<string>();
    for (const row of this.all(
      "SELECT intent FROM intents WHERE account = ? AND kind = 'cancel' AND outcome_type = 'accepted'",
      account.toLowerCase(),
    )) {
      const target = (JSON.parse(textColumn(row, 'intent')) as { target?: { intentId?: string; orderId?: string } })
        .target;
      if (target?.intentId !== undefined) targets.add(target.intentId);
      if (target?.orderId !== undefined) targets.add(target.orderId.toLowerCase());
    }
    return targets;
  }

  order(intentId: string): JournalOrder | undefined {
    const row = this.get('SELECT * FROM orders WHERE intent_id = ?', intentId);
    return row === undefined ? undefined : orderFromRow(row);
  }

  /** Orders not in a terminal state (open, partially filled, pending, unknown). */
  liveOrders(account: string): JournalOrder[] {
    const terminal = TERMINAL_STATES;
    return this.all(
      `SELECT * FROM orders WHERE account = ? AND state NOT IN (${terminal.map(() => '?').join(', ')}) ORDER BY updated_ms, rowid`,
      account.toLowerCase(),
      ...terminal,
    ).map(orderFromRow);
  }

  recentOrders(limit: number, account?: string): JournalOrder[] {
    return (
      account === undefined
        ? this.all('SELECT * FROM orders ORDER BY updated_ms DESC, rowid DESC LIMIT ?', limit)
        : this.all(
            'SELECT * FROM orders WHERE account = ? ORDER BY updated_ms DESC, rowid DESC LIMIT ?',
            account.toLowerCase(),
            limit,
          )
    ).map(orderFromRow);
  }

  recentFills(limit: number, account?: string): JournalFill[] {
    return (
      account === undefined
        ? this.all('SELECT * FROM fills ORDER BY seq DESC LIMIT ?', limit)
        : this.all('SELECT * FROM fills WHERE account = ? ORDER BY seq DESC LIMIT ?', account.toLowerCase(), limit)
    ).map(fillFromRow);
  }

  /** The account's journaled fills of one order, oldest first. */
  fillsOfOrder(account: string, orderId: string): JournalFill[] {
    return this.all(
      'SELECT * FROM fills WHERE account = ? AND order_id = ? ORDER BY seq',
      account.toLowerCase(),
      orderId.toLowerCase(),
    ).map(fillFromRow);
  }

  /** Fills of a market journaled after `seq`. */
  fillsAfter(account: string, marketId: number, seq: number): JournalFill[] {
    return this.all(
      'SELECT * FROM fills WHERE account = ? AND market_id = ? AND seq > ? ORDER BY seq',
      account.toLowerCase(),
      marketId,
      seq,
    ).map(fillFromRow);
  }

  /** The latest snapshot of a market's position, of one source (e.g. the reconciliation base) or any. */
  latestPosition(account: string, marketId: number, source?: string): JournalPosition | undefined {
    const row =
      source === undefined
        ? this.get(
            'SELECT * FROM positions WHERE account = ? AND market_id = ? ORDER BY id DESC LIMIT 1',
            account.toLowerCase(),
            marketId,
          )
        : this.get(
            'SELECT * FROM positions WHERE account = ? AND market_id = ? AND source = ? ORDER BY id DESC LIMIT 1',
            account.toLowerCase(),
            marketId,
            source,
          );
    if (row === undefined) return undefined;
    const avgEntryPrice = optionalTextColumn(row, 'avg_entry_price');
    const marginMode = optionalTextColumn(row, 'margin_mode');
    return {
      marketId: Number(row['market_id']),
      side: row['side'] as Side,
      size: textColumn(row, 'size'),
      ...(avgEntryPrice === undefined ? {} : { avgEntryPrice }),
      ...(marginMode === undefined ? {} : { marginMode }),
      source: textColumn(row, 'source'),
      fillSeq: Number(row['fill_seq']),
      atMs: Number(row['at_ms']),
    };
  }

  private statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private run(sql: string, ...params: unknown[]): { changes: number } {
    const fault = this.writeFault?.();
    if (fault !== undefined)
      throw Object.assign(new Error(`database or disk is full (drill: ${fault})`), { code: 'SQLITE_FULL' });
    return this.statement(sql).run(...params);
  }

  private get(sql: string, ...params: unknown[]): Row | undefined {
    return this.statement(sql).get(...params) as Row | undefined;
  }

  private all(sql: string, ...params: unknown[]): Row[] {
    return this.statement(sql).all(...params) as Row[];
  }
}

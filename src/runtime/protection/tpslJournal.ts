import type { Database } from 'better-sqlite3';
import type { TpslOrder } from '../../engine/orders/tpslOrder.js';
import type { TpslStore } from '../../engine/protection/tpslOrders.js';
import type { TpslState } from '../../engine/orders/tpslState.js';

interface TpslRow {
  id: string;
  strategy: string;
  market_id: number;
  role: string;
  side: string;
  size: string;
  stop_price: string;
  trigger: string;
  state: string;
  venue_id: string | null;
  filled_size: string;
  triggered_price: string | null;
  execution_tx: string | null;
  reason: string | null;
  created_ms: number;
  updated_ms: number;
}

const LIVE_STATES: readonly TpslState[] = ['placing', 'accepted', 'triggered', 'cancelling', 'emulated'];

/**
 * The journal's `tpsl_orders`: each TP/SL order of the account as its latest version, written
 * before the keeper sends anything for it (a placement whose answer is lost is adopted from the
 * venue's list at the next start, never placed twice).
 */
export class TpslJournal implements TpslStore {
  constructor(
    private readonly db: Database,
    private readonly account: string,
  ) {}

  write(order: TpslOrder): void {
    this.db
      .prepare(
        `INSERT INTO tpsl_orders (id, account, strategy, market_id, role, side, size, stop_price, trigger, state, venue_id,
           filled_size, triggered_price, execution_tx, reason, created_ms, updated_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET state = excluded.state, venue_id = excluded.venue_id,
           filled_size = excluded.filled_size, triggered_price = excluded.triggered_price,
           execution_tx = excluded.execution_tx, reason = excluded.reason, updated_ms = excluded.updated_ms`,
      )
      .run(
        order.id,
        this.account.toLowerCase(),
        order.strategy,
        order.marketId,
        order.role,
        order.side,
        order.size,
        order.stopPrice,
        order.trigger,
        order.state,
        order.venueId ?? null,
        order.filledSize,
        order.triggeredPrice ?? null,
        order.executionTx ?? null,
        order.reason ?? null,
        order.createdMs,
        order.updatedMs,
      );
  }

  /** Orders not ended (the keeper adopts them at start). */
  live(): TpslOrder[] {
    const marks = LIVE_STATES.map(() => '?').join(', ');
    const rows = this.db
      .prepare(`SELECT * FROM tpsl_orders WHERE account = ? AND state IN (${marks}) ORDER BY created_ms`)
      .all(this.account.toLowerCase(), ...LIVE_STATES) as TpslRow[];
    return rows.map(orderOfRow);
  }

  /** Every order, newest first (at most `limit`). */
  recent(limit: number): TpslOrder[] {
    const rows = this.db
      .prepare('SELECT * FROM tpsl_orders WHERE account = ? ORDER BY updated_ms DESC LIMIT ?')
      .all(this.account.toLowerCase(), limit) as TpslRow[];
    return rows.map(orderOfRow);
  }
}

function orderOfRow(row: TpslRow): TpslOrder {
  return {
    id: row.id,
    strategy: row.strategy,
    marketId: row.market_id,
    role: row.role === 'take_profit' ? 'take_profit' : 'stop_loss',
    side: row.side === 'BUY' ? 'BUY' : 'SELL',
    size: row.size,
    stopPrice: row.stop_price,
    trigger: row.trigger === 'last' ? 'last' : 'mark',
    state: row.state as TpslState,
    ...(row.venue_id === null ? {} : { venueId: row.venue_id }),
    filledSize: row.filled_size,
    ...(row.triggered_price === null ? {} : { triggeredPrice: row.triggered_price }),
    ...(row.execution_tx === null ? {} : { executionTx: row.execution_tx }),
    ...(row.reason === null ? {} : { reason: row.reason }),
    createdMs: row.created_ms,
    updatedMs: row.updated_ms,
  };
}

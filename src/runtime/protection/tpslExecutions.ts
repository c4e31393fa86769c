import type { Logger } from '../../core/logger.js';
import { TpslOrders } from '../../engine/protection/tpslOrders.js';
import { applyOrderEvent } from '../../engine/orders/orderStateMachine.js';
import type { TrackedOrder } from '../../engine/orders/trackedOrder.js';
import type { TpslOrder } from '../../engine/orders/tpslOrder.js';
import { applyVenueList } from '../../engine/protection/tpslVenueList.js';
import { orderHistoryRecords } from '../../venue/rest/historyPages.js';
import type { RestClient } from '../../venue/rest/restClient.js';
import { readAllTpslOrders } from '../../venue/rest/tpslPages.js';
import type { TpslOrderRecord } from '../../venue/schemas/restTpsl.js';
import type { OrderHistoryRecord } from '../../venue/schemas/restHistory.js';
import type { Journal } from '../../journal/journal.js';
import { historyRecorded } from '../../journal/historyFills.js';
import { TpslJournal } from './tpslJournal.js';

/** Orders in history are read back this far before the earliest trigger (clock skew, the lag). */
const LOOK_BACK_NS = 60_000_000_000n;

/**
 * Before the start's reconciliation reads back the fills the bot missed: the TP/SL orders of ours
 * the journal holds live are judged against the venue's list, and each that executed while the
 * bot was away gets its execution journaled as an order of the strategy that owned it (found in
 * order history by its transaction, `triggered_tx_hash` = the order's `tx_hash`), so the missed
 * fill, read next, is attributed to that strategy like a fill of its own order. Returns the
 * executions journaled.
 */
export async function journalTpslExecutions(o: {
  readonly journal: Journal;
  readonly rest: Pick<RestClient, 'tpslOrders' | 'orderHistory'>;
  readonly account: string;
  readonly markets: readonly number[];
  readonly log: Logger;
  readonly atMs: number;
}): Promise<readonly TpslOrder[]> {
  const store = new TpslJournal(o.journal.db, o.account);
  const live = store.live();
  if (live.length === 0) return [];
  const orders = new TpslOrders(store, (refusal, order) =>
    o.log.warn({ tpsl: order.id, ...refusal }, 'TP/SL change refused'),
  );
  orders.restore(live);
  const { orders: records } = await readAllTpslOrders(o.rest, { account: o.account });
  const outcome = applyVenueList(orders, records, new Set(o.markets), o.atMs);
  const executed = outcome.fired.filter((f) => f.state === 'executed' && f.executionTx !== undefined);
  if (executed.length === 0) return [];
  const history = await executionOrders(o.rest, o.account, executed, records);
  for (const order of executed) {
    const execution = history.get(order.executionTx?.toLowerCase() ?? '');
    if (execution === undefined) {
      o.log.warn(
        { tpsl: order.id, tx: order.executionTx },
        'TP/SL executed while the bot was away; its order is not in the order history',
      );
      continue;
    }
    const recorded = executionOrder(order, execution);
    if (recorded !== undefined) o.journal.recordOrder(o.account, recorded, 'tpsl', o.atMs);
    o.log.warn(
      {
        tpsl: order.id,
        strategy: order.strategy,
        market: order.marketId,
        role: order.role,
        orderId: execution.id,
        filled: execution.filled_size,
      },
      `${order.role === 'stop_loss' ? 'stop-loss' : 'take-profit'} executed on the venue while the bot was away: its fill goes to ${order.strategy}`,
    );
  }
  return executed;
}

/**
 * The execution as an order of the strategy the TP/SL protected: the order model's first version
 * of an order the venue placed for us, as its history records it.
 */
function executionOrder(order: TpslOrder, execution: OrderHistoryRecord): TrackedOrder | undefined {
  const applied = applyOrderEvent(undefined, {
    ...historyRecorded(execution),
    order: {
      intentId: `${order.id}.execution`,
      strategy: order.strategy,
      marketId: order.marketId,
      side: order.side === 'SELL' ? 'sell' : 'buy',
      size: execution.size,
      price: execution.avg_price ?? execution.price,
      orderId: execution.id.toLowerCase(),
    },
  });
  return applied.kind === 'moved' ? applied.order : undefined;
}

/** The account's orders in history by transaction hash, back to the earliest trigger of `executed`. */
async function executionOrders(
  rest: Pick<RestClient, 'orderHistory'>,
  account: string,
  executed: readonly TpslOrder[],
  records: readonly TpslOrderRecord[],
): Promise<Map<string, OrderHistoryRecord>> {
  const byVenueId = new Map(records.map((r) => [r.order_id, r]));
  const triggers = executed.map((e) => byVenueId.get(e.venueId ?? '')?.triggered_at ?? 0n);
  const since = triggers.reduce((a, b) => (b < a ? b : a)) - LOOK_BACK_NS;
  const wanted = new Set(executed.map((e) => e.executionTx?.toLowerCase()));
  const found = new Map<string, OrderHistoryRecord>();
  for await (const order of orderHistoryRecords(rest, { account })) {
    const tx = order.tx_hash?.toLowerCase();
    if (tx !== undefined && wanted.has(tx)) found.set(tx, order);
    if (found.size === wanted.size || order.created_at < since) break;
  }
  return found;
}

import { addDecimals } from '../../core/decimal.js';
import { isTerminal, type TrackedOrder } from '../orders/trackedOrder.js';

/**
 * Finished orders kept for lookups (late fills, cancels by intent id, the journal); older ones
 * are forgotten, so a bot that runs for weeks neither grows without bound nor slows down.
 */
export const FINISHED_ORDERS_KEPT = 10_000;

/**
 * The orders of this process, by intent and by the ids the venue and the strategy gave them
 * (order_id, client_order_id), with the sum of the fills seen for each. Finished orders are kept
 * up to `FINISHED_ORDERS_KEPT`, the oldest forgotten first with everything indexed for them.
 */
export class OrderRegistry {
  private readonly byIntent = new Map<string, TrackedOrder>();
  /** order_id in lower case → intent. */
  private readonly intentByOrderId = new Map<string, string>();
  /** client_order_id (decimal) → intent, to adopt an order whose placement answer was lost. */
  private readonly intentByClientOrderId = new Map<string, string>();
  /** Sum of the fills seen per intent; the venue's filled_size may run ahead or behind it. */
  private readonly fillSums = new Map<string, string>();
  /** Intent ids of finished orders, oldest first. */
  private readonly finished = new Set<string>();
  /**
   * Intent ids of the orders not finished, in the order `values()` lists them: what `open()`
   * walks instead of every finished order kept (admission asks for the open orders on every
   * intent, and up to 10,000 finished ones made each ask slower).
   */
  private live = new Set<string>();

  get(intentId: string): TrackedOrder | undefined {
    return this.byIntent.get(intentId);
  }

  /** The intent that placed the order with this venue id (any case). */
  intentOfOrderId(orderId: string): string | undefined {
    return this.intentByOrderId.get(orderId.toLowerCase());
  }

  intentOfClientOrderId(clientOrderId: string): string | undefined {
    return this.intentByClientOrderId.get(clientOrderId);
  }

  values(): IterableIterator<TrackedOrder> {
    return this.byIntent.values();
  }

  /** The orders not finished, in the order `values()` lists them. */
  *open(): IterableIterator<TrackedOrder> {
    for (const intentId of this.live) {
      const order = this.byIntent.get(intentId);
      if (order !== undefined) yield order;
    }
  }

  /** Stores the order's new version and indexes its ids; returns the version it replaces. */
  put(order: TrackedOrder): TrackedOrder | undefined {
    const before = this.byIntent.get(order.intentId);
    this.byIntent.set(order.intentId, order);
    this.follow(order, before);
    if (isTerminal(order.state)) this.finish(order.intentId);
    if (order.orderId !== undefined) this.intentByOrderId.set(order.orderId.toLowerCase(), order.intentId);
    // Set when the order is signed: a queued order has none yet.
    if (order.clientOrderId !== undefined && before?.clientOrderId === undefined)
      this.intentByClientOrderId.set(order.clientOrderId.toString(), order.intentId);
    return before;
  }

  /** Adds a fill's size to the intent's sum; returns the new sum. */
  addFill(intentId: string, size: string): string {
    const sum = addDecimals(this.fillSums.get(intentId) ?? '0', size);
    this.fillSums.set(intentId, sum);
    return sum;
  }

  /** Keeps `live` in step: a new order joins at the end, as in `byIntent`; a finished one leaves. */
  private follow(order: TrackedOrder, before: TrackedOrder | undefined): void {
    if (isTerminal(order.state)) {
      this.live.delete(order.intentId);
      return;
    }
    if (this.live.has(order.intentId)) return;
    if (before === undefined) this.live.add(order.intentId);
    // Open again after it finished (not a transition the tracker makes): its place is byIntent's.
    else this.live = new Set([...this.byIntent.values()].filter((o) => !isTerminal(o.state)).map((o) => o.intentId));
  }

  private finish(intentId: string): void {
    if (this.finished.has(intentId)) return;
    this.finished.add(intentId);
    if (this.finished.size <= FINISHED_ORDERS_KEPT) return;
    const oldest = this.finished.values().next().value;
    if (oldest === undefined) return;
    this.finished.delete(oldest);
    const order = this.byIntent.get(oldest);
    this.byIntent.delete(oldest);
    this.fillSums.delete(oldest);
    if (order?.orderId !== undefined) this.intentByOrderId.delete(order.orderId.toLowerCase());
    if (order?.clientOrderId !== undefined) this.intentByClientOrderId.delete(order.clientOrderId.toString());
  }
}

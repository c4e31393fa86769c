import { ChangedTicks } from './changedTicks.js';
import { remainingSteps, type SimOrder } from './simOrder.js';

/** An aggregated level in the exchange's units: price in ticks, size in steps. */
export interface TickLevel {
  readonly priceTicks: number;
  readonly steps: bigint;
  readonly orderCount: number;
}

/** One side of a book: price levels kept sorted best-first, each a FIFO queue (time priority). */
class BookSide {
  private readonly queues = new Map<number, SimOrder[]>();
  /** Best first: descending for bids, ascending for asks. */
  private readonly prices: number[] = [];

  constructor(private readonly descending: boolean) {}

  add(order: SimOrder): void {
    const queue = this.queues.get(order.priceTicks);
    if (queue !== undefined) {
      queue.push(order);
      return;
    }
    this.queues.set(order.priceTicks, [order]);
    this.prices.splice(this.insertionIndex(order.priceTicks), 0, order.priceTicks);
  }

  remove(order: SimOrder): boolean {
    const queue = this.queues.get(order.priceTicks);
    if (queue === undefined) return false;
    const at = queue.indexOf(order);
    if (at < 0) return false;
    queue.splice(at, 1);
    if (queue.length === 0) {
      this.queues.delete(order.priceTicks);
      const index = this.insertionIndex(order.priceTicks);
      if (this.prices[index] === order.priceTicks) this.prices.splice(index, 1);
    }
    return true;
  }

  best(): SimOrder | undefined {
    const price = this.prices[0];
    return price === undefined ? undefined : this.queues.get(price)?.[0];
  }

  /** Orders in priority order (price, then time). Do not mutate the side while iterating. */
  *orders(): Generator<SimOrder> {
    for (const price of this.prices) {
      const queue = this.queues.get(price);
      if (queue !== undefined) yield* queue;
    }
  }

  /** The level at `price`, or one of 0 steps and no orders where none rests. */
  levelAt(price: number): TickLevel {
    const queue = this.queues.get(price);
    return queue === undefined
      ? { priceTicks: price, steps: 0n, orderCount: 0 }
      : { priceTicks: price, steps: stepsOf(queue), orderCount: queue.length };
  }

  /** Best first. */
  sortBest(prices: number[]): number[] {
    return prices.sort(this.descending ? (a, b) => b - a : (a, b) => a - b);
  }

  levels(depth: number): TickLevel[] {
    const out: TickLevel[] = [];
    for (const price of this.prices) {
      if (out.length >= depth) break;
      const queue = this.queues.get(price) ?? [];
      out.push({ priceTicks: price, steps: stepsOf(queue), orderCount: queue.length });
    }
    return out;
  }

  get orderCount(): number {
    let n = 0;
    for (const queue of this.queues.values()) n += queue.length;
    return n;
  }

  /** Index of `price` in the sorted list, or where it would be inserted. */
  private insertionIndex(price: number): number {
    let lo = 0;
    let hi = this.prices.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const p = this.prices[mid] as number;
      const before = this.descending ? p > price : p < price;
      if (before) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/**
 * A market's resting orders, price-time priority over integer ticks. Only resting (open) orders
 * live here; the matching walk reads the best opposite order and removes what it consumes.
 */
export class OrderBook {
  private readonly bids = new BookSide(true);
  private readonly asks = new BookSide(false);
  private expiring = 0;
  /** The levels each reader (the orderbook channel's publishers) has not seen change. */
  readonly changed = new ChangedTicks();

  add(order: SimOrder): void {
    this.side(order.side).add(order);
    if (order.expiresAtMs !== undefined) this.expiring += 1;
    this.changed.touch(order.side, order.priceTicks);
  }

  remove(order: SimOrder): boolean {
    const removed = this.side(order.side).remove(order);
    if (removed && order.expiresAtMs !== undefined) this.expiring -= 1;
    if (removed) this.changed.touch(order.side, order.priceTicks);
    return removed;
  }

  /** An order's remaining size changed in place (a fill, a recorded level resized): its level changed if it rests. */
  resized(order: SimOrder): void {
    this.changed.touch(order.side, order.priceTicks);
  }

  /** The levels at `prices` on `side`, best first (0 steps and no orders where none rests). */
  levelsAt(side: 0 | 1, prices: number[]): TickLevel[] {
    const bookSide = this.side(side);
    return bookSide.sortBest(prices).map((price) => bookSide.levelAt(price));
  }

  /** Resting orders that carry a GTT expiry; the expiry sweep skips a book that has none. */
  get expiringCount(): number {
    return this.expiring;
  }

  /** Best resting order on `side` (0 bids, 1 asks). */
  best(side: 0 | 1): SimOrder | undefined {
    return this.side(side).best();
  }

  orders(side: 0 | 1): Generator<SimOrder> {
    return this.side(side).orders();
  }

  levels(side: 0 | 1, depth = Number.POSITIVE_INFINITY): TickLevel[] {
    return this.side(side).levels(depth);
  }

  get orderCount(): number {
    return this.bids.orderCount + this.asks.orderCount;
  }

  private side(side: 0 | 1): BookSide {
    return side === 0 ? this.bids : this.asks;
  }
}

/**
 * The steps resting in a queue. Summed as numbers (each order's are a safe integer) and made a
 * bigint once: a BigInt per order was 5 % of a replay's CPU. Exact while the total is a safe
 * integer, which every partial sum then is too; past that, summed as bigints.
 */
function stepsOf(queue: readonly SimOrder[]): bigint {
  let steps = 0;
  for (const order of queue) steps += remainingSteps(order);
  if (Number.isSafeInteger(steps)) return BigInt(steps);
  let exact = 0n;
  for (const order of queue) exact += BigInt(remainingSteps(order));
  return exact;
}

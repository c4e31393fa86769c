import type { Address } from '../../core/address.js';
import type { EventCollector } from './eventCollector.js';
import type { OrderStore } from './orderStore.js';
import type { CheckedOrder } from './placeOrderChecks.js';
import type { SimOrder } from './simOrder.js';

/** A level of a recorded book on the market's grid, as it now stands; 0 steps: the level is gone. */
export interface RecordedLevelChange {
  readonly side: 0 | 1;
  readonly priceTicks: number;
  readonly steps: number;
}

/** What the layer needs of the exchange: its books, and the next numbered order. */
export interface RecordedLayerDeps {
  readonly store: OrderStore;
  /** A new open order with the next sequence (so the orders placed after it are numbered as the venue's). */
  numbered(account: Address, checked: CheckedOrder, sizeSteps: number, nowMs: number): SimOrder;
}

/**
 * A replay's recorded book on the exchange's books (`src/sim/replay`): each recorded level rests as
 * one unmatched order of the book account, found again by its level rather than by its id. The
 * orders are in the book only, never in the store's index of orders (by id, by account, the
 * terminal window): nothing looks them up, a replay changes several on every book frame, and
 * indexing them was most of showing a level. A taker of ours meets them in the book as any order,
 * in price-time priority among ours; what it consumed stays consumed until the level changes.
 * Each level first shown, or shown again after it was consumed whole, takes the next order
 * sequence as a resting order would, so the bot's orders are numbered as they always were.
 */
export class RecordedLayer {
  /** The order showing each level, by market, then by `levelKey`. */
  private readonly shown = new Map<number, Map<number, SimOrder>>();

  constructor(private readonly deps: RecordedLayerDeps) {}

  /**
   * Shows each changed level of `marketId` as `account`'s: in place where its order is still open
   * (what a taker consumed of it is back), withdrawn at 0 steps, else rested anew without matching
   * (it may even cross our own orders, since in the recording nobody traded with them).
   */
  show(
    account: Address,
    marketId: number,
    levels: readonly RecordedLevelChange[],
    nowMs: number,
    events: EventCollector,
  ): void {
    let orders = this.shown.get(marketId);
    if (orders === undefined) {
      orders = new Map();
      this.shown.set(marketId, orders);
    }
    const book = this.deps.store.book(marketId);
    for (const level of levels) {
      const key = levelKey(level.side, level.priceTicks);
      const known = orders.get(key);
      const open = known?.status === 'ORDER_STATUS_OPEN' ? known : undefined;
      if (level.steps <= 0) {
        if (open !== undefined) {
          open.status = 'ORDER_STATUS_CANCELLED';
          book.remove(open);
        }
        orders.delete(key);
      } else if (open === undefined) {
        const order = this.deps.numbered(account, levelOrder(marketId, level), level.steps, nowMs);
        book.add(order);
        orders.set(key, order);
      } else {
        open.sizeSteps = open.filledSteps + level.steps;
        book.resized(open);
      }
    }
    if (levels.length > 0) events.touchBook(marketId);
  }
}

/** One number per level: bids at even keys, asks at odd ones. */
function levelKey(side: 0 | 1, priceTicks: number): number {
  return priceTicks * 2 + side;
}

/** A level as a GTC limit order of its size at its price: how the matching walk meets it. */
function levelOrder(marketId: number, level: RecordedLevelChange): CheckedOrder {
  return {
    marketId,
    sizeSteps: level.steps,
    priceTicks: level.priceTicks,
    side: level.side,
    postOnly: false,
    reduceOnly: false,
    stpMode: 0,
    orderType: 1,
    timeInForce: 0,
  };
}

/** One of our resting orders as the replay's fill rules see it. */
export interface QueuedOrder {
  /** The exchange's resting id: also its time priority (lower rested earlier). */
  readonly restingId: bigint;
  readonly side: 0 | 1;
  readonly priceTicks: number;
  remainingSteps: number;
  /**
   * Recorded size displayed ahead of it at its price: the level's size when it was placed, less
   * the recorded trades at that price since, and never more than the level shows now.
   */
  aheadSteps: number;
}

/** A recorded public trade on the market's grid: the resting side it traded with, its price and size. */
export interface RecordedTrade {
  readonly makerSide: 0 | 1;
  readonly priceWei: bigint;
  readonly steps: number;
}

/** A fill the trade gives one of our orders. */
export interface QueueFill {
  readonly restingId: bigint;
  readonly steps: number;
}

/**
 * The fill rules of a replay, conservative: a recorded trade fills our resting orders on the side
 * it traded with (its maker side) only where it reached them. An order priced better than the
 * trade (a bid above a sell's print, an ask below a buy's) was gone through: it fills, up to the
 * trade's size. An order at the trade's price fills only with what is left of the trade after the
 * displayed size ahead of it (its queue) is consumed; the trade consumes that queue either way.
 * Our orders take the trade in price-time priority, and together never more than its size.
 * Mutates `remainingSteps` and `aheadSteps` of the orders.
 */
export function fillsFromTrade(orders: readonly QueuedOrder[], trade: RecordedTrade, tickWei: bigint): QueueFill[] {
  const fills: QueueFill[] = [];
  let left = trade.steps;
  let filledAtPrice = 0;
  let volumeAtPrice: number | undefined;
  for (const order of byPriority(orders.filter((o) => o.side === trade.makerSide))) {
    const priceWei = BigInt(order.priceTicks) * tickWei;
    const through = trade.makerSide === 0 ? priceWei > trade.priceWei : priceWei < trade.priceWei;
    if (!through && priceWei !== trade.priceWei) break;
    let steps: number;
    if (through) {
      steps = Math.min(order.remainingSteps, left);
    } else {
      // The part of the trade that reached this price goes through the recorded queue first.
      volumeAtPrice ??= left;
      const passed = Math.min(order.aheadSteps, volumeAtPrice);
      order.aheadSteps -= passed;
      steps = Math.max(0, Math.min(order.remainingSteps, volumeAtPrice - passed - filledAtPrice));
      filledAtPrice += steps;
    }
    if (steps <= 0) continue;
    order.remainingSteps -= steps;
    left -= steps;
    fills.push({ restingId: order.restingId, steps });
  }
  return fills;
}

/** Best price first (bids descending, asks ascending), then the earlier order. */
function byPriority(orders: readonly QueuedOrder[]): QueuedOrder[] {
  return [...orders].sort((a, b) => {
    if (a.priceTicks !== b.priceTicks) return a.side === 0 ? b.priceTicks - a.priceTicks : a.priceTicks - b.priceTicks;
    return a.restingId < b.restingId ? -1 : a.restingId > b.restingId ? 1 : 0;
  });
}

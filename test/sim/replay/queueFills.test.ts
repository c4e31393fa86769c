import { describe, expect, it } from 'vitest';
import { fillsFromTrade, type QueuedOrder } from '../../../src/sim/replay/queueFills.js';

const TICK = 10n ** 17n; // 0.1

function bid(id: number, ticks: number, remaining: number, ahead: number): QueuedOrder {
  return { restingId: BigInt(id), side: 0, priceTicks: ticks, remainingSteps: remaining, aheadSteps: ahead };
}

function sellPrint(ticks: number, steps: number): { makerSide: 0; priceWei: bigint; steps: number } {
  return { makerSide: 0, priceWei: BigInt(ticks) * TICK, steps };
}

describe('fillsFromTrade: the replay fill rules', () => {
  it('fills an order the trade went through (a bid above the print), up to the trade size', () => {
    const order = bid(1, 1001, 10, 50);
    expect(fillsFromTrade([order], sellPrint(1000, 4), TICK)).toEqual([{ restingId: 1n, steps: 4 }]);
    expect(order.remainingSteps).toBe(6);
  });

  it('at the order price, fills only what the trade leaves after the displayed queue ahead', () => {
    const order = bid(1, 1000, 10, 7);
    expect(fillsFromTrade([order], sellPrint(1000, 5), TICK)).toEqual([]);
    expect(order.aheadSteps).toBe(2);
    expect(fillsFromTrade([order], sellPrint(1000, 5), TICK)).toEqual([{ restingId: 1n, steps: 3 }]);
    expect(order.aheadSteps).toBe(0);
    expect(order.remainingSteps).toBe(7);
  });

  it('does not fill an order the trade did not reach, nor an order on the other side', () => {
    const low = bid(1, 999, 10, 0);
    const ask: QueuedOrder = { restingId: 2n, side: 1, priceTicks: 995, remainingSteps: 10, aheadSteps: 0 };
    expect(fillsFromTrade([low, ask], sellPrint(1000, 100), TICK)).toEqual([]);
    expect(low.remainingSteps).toBe(10);
  });

  it('gives our orders the trade in price-time priority, never more than its size in all', () => {
    const better = bid(3, 1002, 4, 0);
    const first = bid(1, 1000, 5, 0);
    const second = bid(2, 1000, 5, 0);
    const fills = fillsFromTrade([second, first, better], sellPrint(1000, 7), TICK);
    expect(fills).toEqual([
      { restingId: 3n, steps: 4 },
      { restingId: 1n, steps: 3 },
    ]);
    expect(second.remainingSteps).toBe(5);
  });

  it('an ask fills from a buy print at or through its price', () => {
    const ask: QueuedOrder = { restingId: 1n, side: 1, priceTicks: 1000, remainingSteps: 3, aheadSteps: 1 };
    expect(fillsFromTrade([ask], { makerSide: 1, priceWei: 1000n * TICK, steps: 2 }, TICK)).toEqual([
      { restingId: 1n, steps: 1 },
    ]);
    expect(fillsFromTrade([ask], { makerSide: 1, priceWei: 1001n * TICK, steps: 5 }, TICK)).toEqual([
      { restingId: 1n, steps: 2 },
    ]);
  });
});

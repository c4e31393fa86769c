import { describe, expect, it } from 'vitest';
import { planQuotes, type LiveQuote, type WantedQuote } from '../../../src/engine/quoting/quotePlan.js';

const w = (index: number, side: 'buy' | 'sell', ticks: number, toleranceTicks = 0, steps = 10): WantedQuote => ({
  index,
  side,
  ticks: BigInt(ticks),
  steps: BigInt(steps),
  toleranceTicks: BigInt(toleranceTicks),
});
const l = (intentId: string, side: 'buy' | 'sell', ticks: number, remainingSteps = 10): LiveQuote => ({
  intentId,
  side,
  ticks: BigInt(ticks),
  remainingSteps: BigInt(remainingSteps),
});

describe('planQuotes', () => {
  it('keeps what is within tolerance and does nothing else', () => {
    expect(planQuotes([w(0, 'buy', 100, 2), w(1, 'sell', 110, 2)], [l('b', 'buy', 101), l('a', 'sell', 108)])).toEqual({
      keep: [
        { live: 'b', wanted: 0 },
        { live: 'a', wanted: 1 },
      ],
      replace: [],
      place: [],
      cancel: [],
    });
  });

  it('moves an order out of tolerance (one replacement, not a cancel and a place apart) and places what is missing', () => {
    expect(planQuotes([w(0, 'buy', 100, 2), w(1, 'sell', 110, 2)], [l('b', 'buy', 95)])).toEqual({
      keep: [],
      replace: [{ live: 'b', wanted: 0 }],
      place: [1],
      cancel: [],
    });
  });

  it('at tolerance 0 keeps only the exact tick', () => {
    const plan = planQuotes([w(0, 'buy', 100)], [l('b', 'buy', 101)]);
    expect(plan.keep).toEqual([]);
    expect(plan.replace).toEqual([{ live: 'b', wanted: 0 }]);
  });

  it('never pairs across sides, and cancels what no wanted order needs', () => {
    expect(planQuotes([w(0, 'sell', 100, 5)], [l('b', 'buy', 100), l('b2', 'buy', 99)])).toEqual({
      keep: [],
      replace: [],
      place: [0],
      cancel: ['b', 'b2'],
    });
  });

  it('an empty target cancels every live order', () => {
    expect(planQuotes([], [l('b', 'buy', 100), l('a', 'sell', 101)]).cancel).toEqual(['b', 'a']);
  });

  it('a partly filled order (less left than wanted) is moved, not kept', () => {
    const plan = planQuotes([w(0, 'buy', 100, 2, 10)], [l('b', 'buy', 100, 5)]);
    expect(plan.keep).toEqual([]);
    expect(plan.replace).toEqual([{ live: 'b', wanted: 0 }]);
  });

  it('with keepPartial, keeps a partly filled order at its price instead of moving it to a whole one', () => {
    const partial = { ...w(0, 'buy', 100, 0, 10), keepPartial: true };
    expect(planQuotes([partial], [l('b', 'buy', 100, 5)]).keep).toEqual([{ live: 'b', wanted: 0 }]);
    // Never one with more left than wanted.
    expect(planQuotes([partial], [l('b', 'buy', 100, 15)]).keep).toEqual([]);
  });

  it('keeps the closest pairs first, so a ladder that shifts by one level keeps all but one order', () => {
    // Bids at 100, 99, 98 wanted at 101, 100, 99: 100 and 99 stay, 98 moves to 101.
    const plan = planQuotes(
      [w(0, 'buy', 101), w(1, 'buy', 100), w(2, 'buy', 99)],
      [l('x100', 'buy', 100), l('x99', 'buy', 99), l('x98', 'buy', 98)],
    );
    expect(plan.keep).toEqual([
      { live: 'x100', wanted: 1 },
      { live: 'x99', wanted: 2 },
    ]);
    expect(plan.replace).toEqual([{ live: 'x98', wanted: 0 }]);
    expect(plan.place).toEqual([]);
    expect(plan.cancel).toEqual([]);
  });

  it('takes at most one action pair per wanted order: the count of actions is what the difference needs', () => {
    const wanted = [w(0, 'buy', 100), w(1, 'sell', 110)];
    const live = [l('b', 'buy', 90), l('a', 'sell', 120), l('extra', 'sell', 130)];
    const plan = planQuotes(wanted, live);
    const actions = plan.replace.length * 2 + plan.place.length + plan.cancel.length;
    expect(plan.replace).toEqual([
      { live: 'b', wanted: 0 },
      { live: 'a', wanted: 1 },
    ]);
    expect(plan.cancel).toEqual(['extra']);
    expect(actions).toBe(5);
  });
});

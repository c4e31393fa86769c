import { describe, expect, it } from 'vitest';
import type { QuoteIntent, QuoteOrder } from '../../../src/engine/intents/intents.js';
import { wantedOf, type CountedTarget } from '../../../src/engine/quoting/wantedQuotes.js';

const GRID = { tick: '0.1', step: '0.001' };
const bid: QuoteOrder = { side: 'buy', size: '0.01', price: '99.93', priceRounding: 'down', postOnly: true };
const ask: QuoteOrder = { side: 'sell', size: '0.01', price: '100.07', priceRounding: 'up', postOnly: true };

function target(orders: readonly QuoteOrder[], extra: Partial<QuoteIntent> = {}): QuoteIntent {
  return { kind: 'quote', intentId: `q-${Math.random()}`, strategy: 's', marketId: 1, orders, ...extra };
}

function counted(intent: QuoteIntent, grid = GRID): CountedTarget {
  const wanted = wantedOf(intent, grid);
  if ('rule' in wanted) throw new Error(wanted.reason);
  return { intent, grid, wanted };
}

describe('wantedOf', () => {
  it('counts each order on the grid: the price in ticks as rounded, the size in steps, the tolerance in ticks', () => {
    expect(counted(target([bid, ask], { tolerance: { bps: 3 } })).wanted).toEqual([
      { index: 0, side: 'buy', ticks: 999n, steps: 10n, toleranceTicks: 0n, keepPartial: false },
      { index: 1, side: 'sell', ticks: 1001n, steps: 10n, toleranceTicks: 0n, keepPartial: false },
    ]);
    expect(counted(target([bid], { tolerance: { ticks: 2, partial: true } })).wanted).toEqual([
      { index: 0, side: 'buy', ticks: 999n, steps: 10n, toleranceTicks: 2n, keepPartial: true },
    ]);
  });

  it('refuses an order off the grid with no rounding named', () => {
    expect(wantedOf(target([{ side: 'buy', size: '0.01', price: '99.93' }]), GRID)).toMatchObject({
      rule: 'quote_target',
      value: '99.93',
    });
  });

  it('gives the previous wanted orders, the same object, for a target that wants the same on the same grid', () => {
    const before = counted(target([bid, ask], { tolerance: { bps: 3 }, mode: 'break_before_make' }));
    // A new intent with equal terms (and terms a target does not count by: post-only, the mode).
    const same = target([{ ...bid, postOnly: false }, { ...ask }], { tolerance: { bps: 3 } });
    expect(wantedOf(same, GRID, before)).toBe(before.wanted);
  });

  it('counts again when anything it counts by differs: an order, the tolerance, the grid', () => {
    const before = counted(target([bid, ask], { tolerance: { bps: 3 } }));
    const changed: [QuoteIntent, typeof GRID][] = [
      [target([{ ...bid, price: '99.94' }, ask], { tolerance: { bps: 3 } }), GRID],
      [target([{ ...bid, size: '0.02' }, ask], { tolerance: { bps: 3 } }), GRID],
      [target([{ ...bid, priceRounding: 'nearest' }, ask], { tolerance: { bps: 3 } }), GRID],
      [target([{ ...bid, sizeRounding: 'down' }, ask], { tolerance: { bps: 3 } }), GRID],
      [target([ask, bid], { tolerance: { bps: 3 } }), GRID],
      [target([bid], { tolerance: { bps: 3 } }), GRID],
      [target([bid, ask], { tolerance: { bps: 4 } }), GRID],
      [target([bid, ask], { tolerance: { bps: 3, ticks: 1 } }), GRID],
      [target([bid, ask], { tolerance: { bps: 3, partial: true } }), GRID],
      [target([bid, ask]), GRID],
      [target([bid, ask], { tolerance: { bps: 3 } }), { tick: '0.01', step: '0.001' }],
      [target([bid, ask], { tolerance: { bps: 3 } }), { tick: '0.1', step: '0.0001' }],
    ];
    for (const [intent, grid] of changed) {
      const wanted = wantedOf(intent, grid, before);
      expect(wanted).not.toBe(before.wanted);
      expect(wanted).toEqual(wantedOf(intent, grid));
    }
  });
});

import { describe, expect, it } from 'vitest';
import type { SweepMetrics } from '../../../src/runtime/sweep/sweepMetrics.js';
import { byObjective, meets, parseConstraint, rankEntries } from '../../../src/runtime/sweep/sweepRanking.js';

const metrics = (over: Partial<SweepMetrics>): SweepMetrics => ({
  netPnl: '0',
  maxDrawdown: '0',
  volume: '0',
  fees: '0',
  fills: 0,
  orders: 0,
  sharpe: null,
  quoteUptime: null,
  failures: 0,
  ...over,
});

describe('sweep ranking', () => {
  it('reads constraints and judges money exactly (no float rounding at the boundary)', () => {
    const c = parseConstraint('max_drawdown   <=  0.3');
    expect(c).toEqual({ metric: 'max_drawdown', op: '<=', value: '0.3', text: 'max_drawdown <= 0.3' });
    // 0.1 + 0.2 in floats is 0.30000000000000004: an exact 0.3 meets "<= 0.3".
    expect(meets(metrics({ maxDrawdown: '0.3' }), c)).toBe(true);
    expect(meets(metrics({ maxDrawdown: '0.300000000000000001' }), c)).toBe(false);
    expect(meets(metrics({ fills: 10 }), parseConstraint('fills>=10'))).toBe(true);
    expect(meets(metrics({ fills: 10 }), parseConstraint('fills>10'))).toBe(false);
    // A figure the report lacks meets no constraint.
    expect(meets(metrics({}), parseConstraint('quote_uptime >= 0.5'))).toBe(false);
    expect(() => parseConstraint('drawdown < 3')).toThrow(/not a sweep constraint/);
  });

  it('orders by the objective in its own direction: net PnL and Sharpe up, drawdown down, a missing figure last', () => {
    expect(byObjective('net_pnl', metrics({ netPnl: '2' }), metrics({ netPnl: '-5' }))).toBeLessThan(0);
    expect(byObjective('max_drawdown', metrics({ maxDrawdown: '2' }), metrics({ maxDrawdown: '5' }))).toBeLessThan(0);
    expect(byObjective('sharpe', metrics({ sharpe: null }), metrics({ sharpe: -3 }))).toBeGreaterThan(0);
    expect(byObjective('fills', metrics({ fills: 3 }), metrics({ fills: 3 }))).toBe(0);
  });

  it('ranks feasible variants first, then the rest, ties in the given order; a replay failure rules a variant out', () => {
    const ranked = rankEntries(
      [
        { entry: 'a', metrics: metrics({ netPnl: '5', maxDrawdown: '9' }) },
        { entry: 'b', metrics: metrics({ netPnl: '3', maxDrawdown: '1' }) },
        { entry: 'c', metrics: metrics({ netPnl: '3', maxDrawdown: '2' }) },
        { entry: 'd', metrics: metrics({ netPnl: '9', maxDrawdown: '1', failures: 1 }) },
      ],
      'net_pnl',
      [parseConstraint('max_drawdown <= 5')],
    );
    expect(ranked.map((r) => [r.entry, r.rank, r.feasible])).toEqual([
      ['b', 1, true],
      ['c', 2, true],
      ['d', 3, false],
      ['a', 4, false],
    ]);
    expect(ranked[2]!.violated).toEqual(['replay failures']);
    expect(ranked[3]!.violated).toEqual(['max_drawdown <= 5']);
  });
});

import { describe, expect, it } from 'vitest';
import { EquityHistory } from '../../../../src/runtime/operations/control/equityHistory.js';

describe('EquityHistory', () => {
  it('samples at most once per interval', () => {
    const history = new EquityHistory(1_000, 100);
    expect(history.offer({ t: 0, equity: '1000', netPnl: '0' })).toBe(true);
    expect(history.offer({ t: 999, equity: '1001', netPnl: '1' })).toBe(false);
    expect(history.offer({ t: 1_000, equity: '1002', netPnl: '2' })).toBe(true);
    expect(history.all().map((p) => p.equity)).toEqual(['1000', '1002']);
  });

  it('stays bounded over a long run: halves the points and doubles the interval when full, keeping the whole span', () => {
    const history = new EquityHistory(1_000, 10);
    for (let t = 0; t <= 3_600_000; t += 1_000) history.offer({ t, equity: String(t), netPnl: null });
    const points = history.all();
    expect(points.length).toBeLessThan(10);
    expect(history.intervalMs).toBeGreaterThanOrEqual(1_000 * 2 ** 8);
    expect(points[points.length - 1]!.t).toBeGreaterThan(3_600_000 - history.intervalMs);
    expect(points.every((p, i) => i === 0 || p.t > points[i - 1]!.t)).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { degradedPeriods } from '../../../../../src/runtime/diagnostics/chaos/audit/degradedPeriods.js';
import { degradedPeriodsOf } from '../../../../../src/runtime/diagnostics/chaos/audit/tradingPeriods.js';
import { mode, reconnect, runOf } from './timelineFixtures.js';

describe('degradedPeriods', () => {
  it('holds when every degraded period is shorter than degraded.max_outage_ms; reports count and longest', () => {
    const events = [mode(1, 'trading'), ...reconnect(20, 0.5, 1.5), ...reconnect(40, 0.5, 4)];
    const result = degradedPeriods(events, [runOf(1, 0, 60)], 300_000, 60_000);
    expect(result.ok).toBe(true);
    expect(result.measured).toBe('2, longest 4.0 s');
    expect(result.data).toMatchObject({ count: 2, longestMs: 4000, totalMs: 5500 });
  });

  it('fails when a period lasts as long as degraded.max_outage_ms', () => {
    const events = [mode(1, 'trading'), mode(10, 'degraded'), mode(20, 'trading')];
    const result = degradedPeriods(events, [runOf(1, 0, 60)], 10_000, 60_000);
    expect(result.ok).toBe(false);
    expect(result.detail).toContain('run 1 was degraded for 10.0 s');
  });

  it('a period still open when its run ended is closed there, per run', () => {
    const events = [mode(1, 'trading'), mode(25, 'degraded'), mode(31, 'degraded', 2), mode(33, 'trading', 2)];
    const periods = degradedPeriodsOf(events, [runOf(1, 0, 30), runOf(2, 30, 60)], 60_000);
    expect(periods).toEqual([
      { run: 1, fromMs: 25_000, toMs: 30_000, cutByExit: true, reasons: ['private feeds down (reconnecting)'] },
      { run: 2, fromMs: 31_000, toMs: 33_000, cutByExit: false, reasons: ['private feeds down (reconnecting)'] },
    ]);
  });
});

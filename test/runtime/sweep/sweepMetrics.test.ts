import { describe, expect, it } from 'vitest';
import { combineMetrics, metricsOf, quoteUptimeOf, sharpeOf } from '../../../src/runtime/sweep/sweepMetrics.js';
import { replayReportFixture } from '../replay/replayReportFixture.js';

describe('sweep metrics', () => {
  it('take the report totals as they are: money as exact decimals, counts as numbers', () => {
    const report = replayReportFixture();
    const m = metricsOf(report, 0);
    expect(m).toMatchObject({
      netPnl: report.totals.netPnl,
      maxDrawdown: report.totals.maxDrawdown,
      fills: report.totals.fills,
      orders: report.totals.orders,
      failures: 0,
    });
  });

  it('Sharpe: mean over standard deviation of the sample returns, annualised by the samples per year', () => {
    // Returns +1 %, -0.5 %, +1 %: mean 0.5 %, sample sd 0.866 %; one sample a day.
    const day = 86_400_000;
    const equity = [100, 101, 100.495, 101.49995].map((v, i) => ({ t: i * day, value: String(v) }));
    const expected = (0.005 / Math.sqrt(0.000075)) * Math.sqrt(365.25);
    expect(sharpeOf(equity)).toBeCloseTo(expected, 3);
    expect(sharpeOf(equity.slice(0, 2))).toBeNull();
    // No variation: no ratio.
    expect(sharpeOf([0, 1, 2].map((i) => ({ t: i * day, value: '100' })))).toBeNull();
  });

  it("quote uptime: the engine's per-market figures weighted by the time wanted, of the swept strategy", () => {
    const report = replayReportFixture();
    const strategies = [
      {
        ...report.strategies[0]!,
        name: 'mm',
        quoteUptime: [
          { marketId: 1, wantedMs: 3_000, uptime: 1 },
          { marketId: 2, wantedMs: 1_000, uptime: 0.5 },
          { marketId: 3, wantedMs: 0, uptime: null },
        ],
      },
      { ...report.strategies[0]!, name: 'other', quoteUptime: [{ marketId: 1, wantedMs: 4_000, uptime: 0 }] },
    ];
    const withViews = { ...report, strategies } as unknown as typeof report;
    expect(quoteUptimeOf(withViews, 'mm')).toBe(0.875);
    expect(quoteUptimeOf(withViews)).toBe(0.4375);
    expect(quoteUptimeOf(withViews, 'nobody')).toBeNull();
  });

  it('quote uptime from a total when the report carries one, as a share or a percentage; absent otherwise', () => {
    // A replay's own figure (each strategy's markets, weighted by the time wanted) first.
    expect(quoteUptimeOf(replayReportFixture())).toBe(0.98);
    const fixture = replayReportFixture();
    const report = { ...fixture, strategies: fixture.strategies.map((s) => ({ ...s, quoteUptime: [] })) };
    expect(quoteUptimeOf(report)).toBeNull();
    const withShare = { ...report, totals: { ...report.totals, quoteUptime: 0.975 } };
    expect(quoteUptimeOf(withShare)).toBe(0.975);
    const withPercent = { ...report, totals: { ...report.totals, quoteUptime: '97.5%' } };
    expect(quoteUptimeOf(withPercent as unknown as typeof report)).toBe(0.975);
  });

  it('over several recordings: money and counts add up exactly, the drawdown is the worst, ratios averaged', () => {
    const base = metricsOf(replayReportFixture(), 0);
    const combined = combineMetrics([
      { ...base, netPnl: '0.1', fees: '0.2', maxDrawdown: '3', fills: 2, sharpe: 1, quoteUptime: null },
      { ...base, netPnl: '0.2', fees: '0.1', maxDrawdown: '5', fills: 3, sharpe: 2, quoteUptime: 0.5, failures: 1 },
    ]);
    expect(combined).toMatchObject({
      netPnl: '0.3',
      fees: '0.3',
      maxDrawdown: '5',
      fills: 5,
      sharpe: 1.5,
      quoteUptime: 0.5,
      failures: 1,
    });
  });
});

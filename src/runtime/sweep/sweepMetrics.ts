import { addDecimals, compareDecimals } from '../../core/decimal.js';
import type { ReplayReport } from '../replay/replayReport.js';

/**
 * The figures a sweep ranks and filters by, read from one replay's report (its totals and equity
 * series: the engine's numbers, never recomputed). Money stays exact decimal strings; Sharpe and
 * quote uptime are ratios.
 */
export interface SweepMetrics {
  readonly netPnl: string;
  readonly maxDrawdown: string;
  readonly volume: string;
  readonly fees: string;
  readonly fills: number;
  readonly orders: number;
  /** Annualised Sharpe ratio of the equity samples' returns; null with fewer than 3 samples or no variation. */
  readonly sharpe: number | null;
  /** Share of the time the swept strategy's wanted quotes rested (0 to 1), from the replay report; else null. */
  readonly quoteUptime: number | null;
  /** Failures inside the replay's machinery: a variant with any is never ranked feasible. */
  readonly failures: number;
}

const YEAR_MS = 365.25 * 86_400_000;

/** The figures of one replay; quote uptime is `strategy`'s (the swept one) when given. */
export function metricsOf(report: ReplayReport, failures: number, strategy?: string): SweepMetrics {
  const { totals } = report;
  return {
    netPnl: totals.netPnl,
    maxDrawdown: totals.maxDrawdown,
    volume: totals.volume,
    fees: totals.fees,
    fills: totals.fills,
    orders: totals.orders,
    sharpe: sharpeOf(report.series.equity),
    quoteUptime: quoteUptimeOf(report, strategy),
    failures,
  };
}

/**
 * Mean over standard deviation of the returns between equity samples, times the square root of
 * how many such periods a year holds (the samples' average spacing). A ratio, so a float.
 */
export function sharpeOf(equity: ReplayReport['series']['equity']): number | null {
  if (equity.length < 3) return null;
  const returns: number[] = [];
  for (let i = 1; i < equity.length; i++) {
    const before = Number(equity[i - 1]!.value);
    returns.push(before === 0 ? 0 : (Number(equity[i]!.value) - before) / before);
  }
  const mean = returns.reduce((a, b) => a + b, 0) / returns.length;
  const variance = returns.reduce((a, r) => a + (r - mean) ** 2, 0) / (returns.length - 1);
  const periodMs = (equity[equity.length - 1]!.t - equity[0]!.t) / returns.length;
  if (!(variance > 0) || !(periodMs > 0)) return null;
  return round((mean / Math.sqrt(variance)) * Math.sqrt(YEAR_MS / periodMs), 4);
}

/**
 * Quote uptime as the replay report gives it: the engine's figure from the order model's events,
 * per strategy and market (`strategies[].quoteUptime[]`: `uptime`, a share 0 to 1 of `wantedMs`,
 * the time something was wanted), weighted by the time wanted, of `strategy` or of every strategy;
 * or one `totals.quoteUptime` (a share, or a percentage "97.5%"). A report without it (a replay
 * from before the figure existed, or a strategy that never quoted) has none, and ranking by it
 * is refused.
 */
export function quoteUptimeOf(report: ReplayReport, strategy?: string): number | null {
  return perMarketUptime(report, strategy) ?? totalUptime(report);
}

function perMarketUptime(report: ReplayReport, strategy: string | undefined): number | null {
  let wanted = 0;
  let held = 0;
  for (const s of report.strategies as readonly { name: string; quoteUptime?: unknown }[]) {
    if (strategy !== undefined && s.name !== strategy) continue;
    if (!Array.isArray(s.quoteUptime)) continue;
    for (const view of s.quoteUptime as readonly { uptime?: unknown; wantedMs?: unknown }[]) {
      if (typeof view.uptime !== 'number' || typeof view.wantedMs !== 'number' || !(view.wantedMs > 0)) continue;
      wanted += view.wantedMs;
      held += view.uptime * view.wantedMs;
    }
  }
  return wanted > 0 ? round(held / wanted, 6) : null;
}

function totalUptime(report: ReplayReport): number | null {
  const totals = report.totals as unknown as Record<string, unknown>;
  const value = totals['quoteUptime'] ?? totals['quote_uptime'];
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string') {
    const percent = /^(\d+(?:\.\d+)?)%$/.exec(value.trim());
    const share = percent === null ? Number(value) : Number(percent[1]) / 100;
    if (Number.isFinite(share)) return share;
  }
  return null;
}

/**
 * One variant's figures over several replays (its runs of several recordings): money and counts
 * add up, the drawdown is the worst, Sharpe and uptime are averaged over the replays that have them.
 */
export function combineMetrics(all: readonly SweepMetrics[]): SweepMetrics {
  const first = all[0];
  if (first === undefined) throw new RangeError('combineMetrics needs at least one replay');
  if (all.length === 1) return first;
  const mean = (values: (number | null)[]): number | null => {
    const some = values.filter((v): v is number => v !== null);
    return some.length === 0 ? null : round(some.reduce((a, b) => a + b, 0) / some.length, 4);
  };
  const sum = (pick: (m: SweepMetrics) => string): string => all.map(pick).reduce((a, b) => addDecimals(a, b));
  return {
    netPnl: sum((m) => m.netPnl),
    maxDrawdown: all.map((m) => m.maxDrawdown).reduce((a, b) => (compareDecimals(a, b) >= 0 ? a : b)),
    volume: sum((m) => m.volume),
    fees: sum((m) => m.fees),
    fills: all.reduce((n, m) => n + m.fills, 0),
    orders: all.reduce((n, m) => n + m.orders, 0),
    sharpe: mean(all.map((m) => m.sharpe)),
    quoteUptime: mean(all.map((m) => m.quoteUptime)),
    failures: all.reduce((n, m) => n + m.failures, 0),
  };
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

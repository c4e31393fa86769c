import { compareDecimals } from '../../core/decimal.js';
import { CONSTRAINT_PATTERN, type SweepMetricName, type SweepObjective } from '../config/sweepSchema.js';
import type { SweepMetrics } from './sweepMetrics.js';

/** "max_drawdown <= 50", read. */
export interface SweepConstraint {
  readonly metric: SweepMetricName;
  readonly op: '<=' | '<' | '>=' | '>';
  readonly value: string;
  readonly text: string;
}

export function parseConstraint(text: string): SweepConstraint {
  const match = CONSTRAINT_PATTERN.exec(text);
  if (match === null) throw new RangeError(`not a sweep constraint: ${JSON.stringify(text)}`);
  const [, metric, op, value] = match as unknown as [string, SweepMetricName, SweepConstraint['op'], string];
  return { metric, op, value, text: `${metric} ${op} ${value}` };
}

/** Which way is better for each figure. */
const LOWER_IS_BETTER: ReadonlySet<SweepMetricName> = new Set(['max_drawdown', 'fees']);

/** Whether less of the figure is better (a drawdown, fees). */
export function lowerIsBetter(metric: SweepMetricName): boolean {
  return LOWER_IS_BETTER.has(metric);
}

/** A figure by its sweep name: money as exact decimal strings, counts and ratios as numbers, null when absent. */
export function metricValue(metrics: SweepMetrics, name: SweepMetricName): string | number | null {
  switch (name) {
    case 'net_pnl':
      return metrics.netPnl;
    case 'max_drawdown':
      return metrics.maxDrawdown;
    case 'volume':
      return metrics.volume;
    case 'fees':
      return metrics.fees;
    case 'fills':
      return metrics.fills;
    case 'orders':
      return metrics.orders;
    case 'sharpe':
      return metrics.sharpe;
    case 'quote_uptime':
      return metrics.quoteUptime;
  }
}

/** a against b: negative when a is below b. Money compares exactly; a missing figure is below any. */
function compareValues(a: string | number | null, b: string | number | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  if (typeof a === 'string' && typeof b === 'string') return compareDecimals(a, b);
  return Number(a) - Number(b);
}

/** Whether the figures meet the constraint; a figure the report lacks meets none. */
export function meets(metrics: SweepMetrics, constraint: SweepConstraint): boolean {
  const value = metricValue(metrics, constraint.metric);
  if (value === null) return false;
  const c =
    typeof value === 'string' ? compareDecimals(value, constraint.value) : Math.sign(value - Number(constraint.value));
  switch (constraint.op) {
    case '<=':
      return c <= 0;
    case '<':
      return c < 0;
    case '>=':
      return c >= 0;
    case '>':
      return c > 0;
  }
}

/** Negative when `a` is the better of the two by the objective (a missing figure is the worst). */
export function byObjective(objective: SweepObjective, a: SweepMetrics, b: SweepMetrics): number {
  const x = metricValue(a, objective);
  const y = metricValue(b, objective);
  if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
  const c = compareValues(x, y);
  return LOWER_IS_BETTER.has(objective) || c === 0 ? c : -c;
}

export interface RankedEntry<T> {
  readonly entry: T;
  readonly metrics: SweepMetrics;
  /** 1 for the best; feasible entries first. */
  readonly rank: number;
  readonly feasible: boolean;
  /** The constraints it fails, and "replay failures" when its replay had any. */
  readonly violated: readonly string[];
}

/**
 * Feasible entries (every constraint met, no replay failure) best first by the objective, then the
 * rest the same way; ties keep the given order (the variants' own), so the ranking is the same on
 * every run.
 */
export function rankEntries<T>(
  entries: readonly { readonly entry: T; readonly metrics: SweepMetrics }[],
  objective: SweepObjective,
  constraints: readonly SweepConstraint[],
): RankedEntry<T>[] {
  const judged = entries.map((e, order) => {
    const violated = constraints.filter((c) => !meets(e.metrics, c)).map((c) => c.text);
    if (e.metrics.failures > 0) violated.push('replay failures');
    return { ...e, order, violated, feasible: violated.length === 0 };
  });
  judged.sort(
    (a, b) =>
      Number(b.feasible) - Number(a.feasible) || byObjective(objective, a.metrics, b.metrics) || a.order - b.order,
  );
  return judged.map((j, i) => ({
    entry: j.entry,
    metrics: j.metrics,
    rank: i + 1,
    feasible: j.feasible,
    violated: j.violated,
  }));
}

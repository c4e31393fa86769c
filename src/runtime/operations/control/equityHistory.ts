/** One sample of the chart: the status's `equity` and `pnl.netPnl` (exact decimals) at an engine-clock time. */
export interface EquityPoint {
  readonly t: number;
  readonly equity: string | null;
  readonly netPnl: string | null;
}

/**
 * Equity and netPnl over the whole run in bounded memory: a sample every `everyMs` until `maxPoints`
 * are kept, then every other point is dropped and the interval doubles. A bot that runs for weeks
 * keeps its whole curve at a coarser grain, the last hours at a finer one than the first.
 */
export class EquityHistory {
  private points: EquityPoint[] = [];
  private everyMs: number;

  constructor(
    everyMs = 1_000,
    private readonly maxPoints = 1_500,
  ) {
    this.everyMs = everyMs;
  }

  /** Records the sample when at least the current interval passed since the last one; true if it did. */
  offer(point: EquityPoint): boolean {
    const last = this.points[this.points.length - 1];
    if (last !== undefined && point.t - last.t < this.everyMs) return false;
    this.points.push(point);
    if (this.points.length >= this.maxPoints) {
      this.points = this.points.filter((_p, i) => i % 2 === 1 || i === this.points.length - 1);
      this.everyMs *= 2;
    }
    return true;
  }

  all(): readonly EquityPoint[] {
    return this.points;
  }

  get intervalMs(): number {
    return this.everyMs;
  }
}

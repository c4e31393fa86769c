/**
 * One row of bench/results.json: a figure beside what it is judged against, measured in the same
 * run. A baseline is another implementation of the same job (viem, a naive client); a limit is the
 * floor no implementation can beat (a bare signature, a bare server). A figure has either or both.
 */
export interface Figure {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly baseline_name?: string;
  readonly baseline_value?: number;
  readonly limit_name?: string;
  readonly limit_value?: number;
  /** Latency figures: the value is the p50, the p99 sits beside it. */
  readonly p99_us?: number;
  /** Absent: the figure is reported with its ratio only, judged against nothing. */
  readonly target?: string;
  /** Whether the target holds in this run (a ratio check, never asserted in tests); absent with no target. */
  readonly target_met?: boolean;
  /** Extra readings shown in the table (latencies, microseconds per operation). */
  readonly notes?: Readonly<Record<string, number | string>>;
}

/** A figure measured against a baseline (the soak's RSS figures compare end with start). */
export interface BaselinedFigure extends Figure {
  readonly baseline_name: string;
  readonly baseline_value: number;
}

/**
 * How big a run is: `full` is what `npm run bench` measures; `smoke` runs the same code (its set-up,
 * its checks, its result record) at a tiny size, in seconds, so the bench smoke test in `npm test`
 * fails when a change breaks a figure. A smoke figure's value means nothing and its target is not judged.
 */
export type BenchScale = 'full' | 'smoke';

export interface FigureBench {
  readonly name: string;
  run(scale: BenchScale): Promise<Figure | Figure[]>;
}

/** One row of bench/results.json: a figure beside a baseline measured in the same run. */
export interface Figure {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly baseline_name: string;
  readonly baseline_value: number;
  readonly limit_name?: string;
  readonly limit_value?: number;
  readonly target: string;
  /** Whether the target holds in this run (a ratio check, never asserted in tests). */
  readonly target_met: boolean;
  /** Extra readings shown in the table (latencies, microseconds per operation). */
  readonly notes?: Readonly<Record<string, number | string>>;
}

export interface FigureBench {
  readonly name: string;
  run(): Promise<Figure | Figure[]>;
}

import { percentile } from '../measureRate.js';

/** Percentiles of latency samples given in milliseconds, reported in microseconds (one decimal). */
export interface LatencySummary {
  readonly count: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly p999: number;
  readonly max: number;
}

export function summariseUs(samplesMs: readonly number[]): LatencySummary {
  if (samplesMs.length === 0) throw new RangeError('no latency samples to summarise');
  const us = (ms: number) => Number((ms * 1000).toFixed(1));
  return {
    count: samplesMs.length,
    p50: us(percentile(samplesMs, 50)),
    p90: us(percentile(samplesMs, 90)),
    p99: us(percentile(samplesMs, 99)),
    p999: us(percentile(samplesMs, 99.9)),
    max: us(Math.max(...samplesMs)),
  };
}

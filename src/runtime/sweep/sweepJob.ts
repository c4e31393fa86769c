import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { HostLogger } from '../../strategy/strategyHost.js';
import { loadStrategies } from '../bot/wiring/loadStrategies.js';
import type { Config } from '../config/configSchema.js';
import type { ParamValue } from '../config/sweepSchema.js';
import { streamRecordingFrames, type ReplayFrameSource } from '../replay/replayFrames.js';
import { replayFrames } from '../replay/replayRecording.js';
import { replayReportText } from '../replay/replayReport.js';
import { SharedFrames, type SharedFramesData } from '../replay/sharedFrames.js';
import { metricsOf, type SweepMetrics } from './sweepMetrics.js';

/** Samples of equity, position and price: one a second of recording time, as `perpbot replay` takes them. */
export const SWEEP_SAMPLE_MS = 1_000;

/** What every replay of a sweep shares: the config, the strategy that varies, and the recordings. */
export interface SweepJobContext {
  readonly config: Config;
  readonly strategyIndex: number;
  /** Where strategy modules resolve from (the directory perpbot started in). */
  readonly cwd: string;
  /** Each recording decoded in shared memory, or its path when it did not fit. */
  readonly recordings: readonly { readonly path: string; readonly shared: SharedFramesData | undefined }[];
  readonly log: HostLogger;
}

/** One replay to run: a variant's params over a span of a recording. */
export interface SweepJobInput {
  readonly key: string;
  readonly params: Readonly<Record<string, ParamValue>>;
  readonly recordingIndex: number;
  readonly fromMs: number;
  readonly toMs: number | null;
  /** A full span replays the run exactly as `perpbot replay` does, with no window at all. */
  readonly full: boolean;
}

export interface SweepJobOutput {
  readonly key: string;
  /** The report's bytes, as `perpbot replay` writes report.json. */
  readonly report: string;
  readonly reportSha256: string;
  readonly metrics: SweepMetrics;
  /** The first failure inside the replay machinery, when there was one. */
  readonly firstFailure: string | undefined;
  readonly wallMs: number;
  /** Recording time replayed. */
  readonly spanMs: number;
}

/** The config with one strategy's params replaced by the variant's (every other param as configured). */
export function variantConfig(config: Config, strategyIndex: number, params: SweepJobInput['params']): Config {
  return {
    ...config,
    strategies: config.strategies.map((s, i) =>
      i === strategyIndex ? { ...s, params: { ...s.params, ...params } } : s,
    ),
  };
}

/**
 * One replay of a sweep, through the same machinery as `perpbot replay`: the strategies loaded and
 * their params checked as `perpbot start` does, the replay with the config's replay section, the
 * report's bytes and figures.
 */
export async function runSweepJob(context: SweepJobContext, job: SweepJobInput): Promise<SweepJobOutput> {
  const started = performance.now();
  const config = variantConfig(context.config, context.strategyIndex, job.params);
  const hosted = await loadStrategies(config, context.cwd);
  let failures = 0;
  let firstFailure: string | undefined;
  const report = await replayFrames(await sourceOf(context, job.recordingIndex), {
    config,
    hosted,
    latencyMs: config.replay.latency_ms,
    makerFeeBps: config.replay.maker_fee_bps,
    takerFeeBps: config.replay.taker_fee_bps,
    balance: config.replay.balance,
    sampleMs: SWEEP_SAMPLE_MS,
    log: context.log,
    onError: (error) => {
      failures++;
      firstFailure ??= error instanceof Error ? error.message : String(error);
    },
    ...(job.full ? {} : { window: { fromMs: job.fromMs, ...(job.toMs === null ? {} : { toMs: job.toMs }) } }),
  });
  const text = replayReportText(report);
  return {
    key: job.key,
    report: text,
    reportSha256: createHash('sha256').update(text).digest('hex'),
    metrics: metricsOf(report, failures, config.strategies[context.strategyIndex]?.name),
    firstFailure,
    wallMs: performance.now() - started,
    spanMs: report.recording.endMs - report.recording.startMs,
  };
}

async function sourceOf(context: SweepJobContext, index: number): Promise<ReplayFrameSource> {
  const recording = context.recordings[index];
  if (recording === undefined) throw new RangeError(`the sweep has no recording ${index}`);
  return recording.shared === undefined
    ? streamRecordingFrames(recording.path)
    : SharedFrames.fromShared(recording.shared);
}

import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadStrategyModule } from '../bot/wiring/loadStrategies.js';
import { ConfigError } from '../config/configError.js';
import type { Config } from '../config/configSchema.js';
import { parseStrategyParams } from '../config/parseStrategyParams.js';
import type { SweepSection } from '../config/sweepSchema.js';
import { loadSharedFrames, type RecordingExtent } from '../replay/sharedFrames.js';
import type { SweepJobInput, SweepJobOutput } from './sweepJob.js';
import { studyRecordings, studySpans, sweepJobs, inShard, type Shard, type SweepJob } from './sweepPlan.js';
import { runInThread } from './sweepInThread.js';
import { runOnWorkers, type WorkerContext } from './sweepPool.js';
import { sweepVariants, type Variant } from './sweepVariants.js';
import { appendResult, openStudy, writeStudy, type StudyHeader, type StudyResult } from './studyFile.js';
import { variantReportPath, writeVariantParams } from './variantFiles.js';

/** The most frame text a sweep keeps in shared memory; past it each worker streams the recordings from disk. */
const SHARED_FRAMES_BYTES = 1024 ** 3;

export interface SweepOptions {
  /** Recording directories or segments, absolute. */
  readonly recordings: readonly string[];
  readonly config: Config;
  /** The config file's text (kept in the study, for best.yaml). */
  readonly configText: string;
  /** The sweep section with the command's flags applied. */
  readonly section: SweepSection;
  readonly cwd: string;
  /** The study's directory: study.jsonl and variants/ (variantFiles.ts). */
  readonly out: string;
  readonly shard: Shard | undefined;
  /** Discard a study already in `out`. */
  readonly fresh: boolean;
  /** Worker threads (replays at once). */
  readonly workers: number;
  readonly signal: AbortSignal;
  /** One line per replay finished, and what the sweep is doing. */
  readonly progress: (line: string) => void;
  /** Replays finished of those this run has to do, at its start and after each (a progress bar). */
  readonly advanced?: (done: number, of: number) => void;
}

export interface SweepRun {
  readonly header: StudyHeader;
  readonly studyPath: string;
  /** Every result of this sweep (or shard), in study order. */
  readonly results: readonly StudyResult[];
  /** Jobs this run replayed; the others were in the study already. */
  readonly ran: readonly string[];
  readonly skipped: number;
  readonly jobs: number;
  readonly wallMs: number;
  readonly cpuMs: number;
  /** Recording time replayed by this run, summed over its replays. */
  readonly replayedMs: number;
}

/**
 * `perpbot sweep`: the variants of the sweep section, each replayed over every span of every
 * recording through `perpbot replay`'s machinery, on worker threads that share the recordings
 * decoded once. Each result is appended to the study as it finishes; a study of the same sweep
 * already in `out` is continued (nothing in it runs again), and once every result of the sweep
 * (or of its shard) is in, the study is rewritten in study order.
 */
export async function sweepRecordings(o: SweepOptions): Promise<SweepRun> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const strategyIndex = sweptStrategy(o.config, o.section.strategy);
  const variants = sweepVariants(o.section);
  await checkVariants(o.config, strategyIndex, variants, o.cwd);
  o.progress(`reading ${o.recordings.length} recording(s) once for every replay...`);
  const loaded = await loadRecordings(o.recordings);
  const header = studyHeader(
    o,
    strategyIndex,
    variants,
    loaded.map((l) => l.extent),
  );
  const { studyPath, done } = studyIn(o, header);
  const jobs = sweepJobs(variants, header.recordings, header.spans).filter((j) => inShard(j.variantIndex, o.shard));
  const pending = jobs.filter((j) => !done.has(j.key));
  o.progress(
    `${jobs.length} replay(s) in this sweep: ${done.size} already in the study, ${pending.length} to run on ${Math.min(o.workers, pending.length)} worker(s)`,
  );
  const context: WorkerContext = {
    config: o.config,
    strategyIndex,
    cwd: o.cwd,
    recordings: loaded.map((l) => ({ path: l.path, shared: l.shared?.toShared() })),
  };
  const ran: string[] = [];
  let replayedMs = 0;
  const onDone = (output: SweepJobOutput): void => {
    const result = keep(o.out, studyPath, jobs, header.spans.length, output);
    done.set(result.job, result);
    ran.push(result.job);
    replayedMs += output.spanMs;
    o.progress(progressLine(ran.length, pending.length, result, output));
    o.advanced?.(ran.length, pending.length);
  };
  o.advanced?.(0, pending.length);
  const inputs = pending.map(jobInput);
  if (Math.min(o.workers, inputs.length) === 1) await runInThread(context, inputs, onDone, o.signal);
  else if (inputs.length > 0) await runOnWorkers(context, inputs, o.workers, onDone, o.signal);
  const results = jobs.flatMap((j) => done.get(j.key) ?? []);
  if (results.length === jobs.length) writeStudy(studyPath, header, results);
  const used = process.cpuUsage(cpu);
  return {
    header,
    studyPath,
    results,
    ran,
    skipped: jobs.length - pending.length,
    jobs: jobs.length,
    wallMs: performance.now() - started,
    cpuMs: (used.user + used.system) / 1_000,
    replayedMs,
  };
}

/** The study in `out`, continued or begun, and the params of each variant of this shard beside it. */
function studyIn(o: SweepOptions, header: StudyHeader): { studyPath: string; done: Map<string, StudyResult> } {
  mkdirSync(o.out, { recursive: true });
  const studyPath = join(o.out, 'study.jsonl');
  const done = openStudy(studyPath, header, o.fresh);
  writeVariantParams(
    o.out,
    header.variants.filter((_, i) => inShard(i, o.shard)),
  );
  return { studyPath, done };
}

/** Each recording once, into shared memory while all of them fit in SHARED_FRAMES_BYTES together. */
async function loadRecordings(paths: readonly string[]) {
  const loaded = [];
  let room = SHARED_FRAMES_BYTES;
  for (const path of paths) {
    const one = await loadSharedFrames(path, room);
    room -= one.shared?.toShared().bytes.byteLength ?? 0;
    loaded.push({ path, ...one });
  }
  return loaded;
}

/** The report on disk first, then its line in the study: a result the study names always has its report. */
function keep(
  out: string,
  studyPath: string,
  jobs: readonly SweepJob[],
  spansPerVariant: number,
  output: SweepJobOutput,
): StudyResult {
  const job = jobs.find((j) => j.key === output.key);
  if (job === undefined) throw new RangeError(`a worker answered for ${output.key}, which this sweep never asked for`);
  const report = variantReportPath(job.variant.id, job.span, spansPerVariant);
  writeFileSync(join(out, report), output.report);
  const result: StudyResult = {
    type: 'result',
    job: job.key,
    variant: job.variant.id,
    recording: job.span.recording,
    span: job.span.id,
    metrics: output.metrics,
    report,
    reportSha256: output.reportSha256,
  };
  appendResult(studyPath, result);
  return result;
}

function jobInput(job: SweepJob): SweepJobInput {
  return {
    key: job.key,
    params: job.variant.params,
    recordingIndex: job.recordingIndex,
    fromMs: job.span.fromMs,
    toMs: job.span.toMs,
    full: job.span.toMs === null,
  };
}

function progressLine(n: number, of: number, result: StudyResult, output: SweepJobOutput): string {
  const m = result.metrics;
  const speed = output.wallMs > 0 ? `${Math.round(output.spanMs / output.wallMs)}x` : '';
  return (
    `[${n}/${of}] ${result.job}: net ${m.netPnl}, drawdown ${m.maxDrawdown}, fills ${m.fills}, ` +
    `sharpe ${m.sharpe ?? '-'} (${(output.wallMs / 1000).toFixed(1)} s, ${speed} real time)` +
    (output.firstFailure === undefined ? '' : `; ${m.failures} replay failure(s), first: ${output.firstFailure}`)
  );
}

/** The strategy whose params vary: the one named, or the config's only one. */
export function sweptStrategy(config: Config, name: string | undefined): number {
  if (name === undefined) {
    if (config.strategies.length === 1) return 0;
    throw ConfigError.at('sweep.strategy', 'the config runs several strategies: name the one whose params vary', [
      `one of ${config.strategies.map((s) => s.name).join(', ')}`,
    ]);
  }
  const index = config.strategies.findIndex((s) => s.name === name);
  if (index < 0)
    throw ConfigError.at('sweep.strategy', `no strategy named ${JSON.stringify(name)} in the config`, [
      `one of ${config.strategies.map((s) => s.name).join(', ')}`,
    ]);
  return index;
}

/** Every variant's params through the strategy's own schema before anything replays. */
async function checkVariants(config: Config, index: number, variants: readonly Variant[], cwd: string): Promise<void> {
  const entry = config.strategies[index]!;
  const definition = await loadStrategyModule(entry.module, cwd, `strategies[${index}].module`);
  for (const variant of variants) {
    try {
      parseStrategyParams(definition.params, { ...entry.params, ...variant.params }, index);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      const [first, ...rest] = error.problems;
      if (first === undefined) throw error;
      throw new ConfigError([first, ...rest], {
        hints: [`sweep variant ${variant.id} (${JSON.stringify(variant.params)}) gives these params`, ...error.hints],
      });
    }
  }
}

function studyHeader(
  o: SweepOptions,
  strategyIndex: number,
  variants: readonly Variant[],
  extents: readonly RecordingExtent[],
): StudyHeader {
  const recordings = studyRecordings(extents);
  const { spans, windows } = studySpans(recordings, o.section.walk_forward);
  const strategy = o.config.strategies[strategyIndex]!.name;
  // What decides the results; the ranking settings and the logging do not.
  const decides = {
    config: { ...o.config, sweep: undefined, logging: undefined },
    strategy,
    recordings,
    spans,
    variants,
  };
  return {
    type: 'study',
    version: 1,
    fingerprint: createHash('sha256').update(JSON.stringify(decides)).digest('hex'),
    config: o.configText,
    strategy,
    objective: o.section.objective,
    constraints: o.section.constraints,
    top: o.section.top,
    recordings,
    spans,
    windows,
    variants,
    ...(o.shard === undefined ? {} : { shard: o.shard }),
  };
}

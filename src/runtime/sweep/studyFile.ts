import { existsSync, readFileSync, renameSync, writeFileSync, appendFileSync } from 'node:fs';
import { PerpbotError } from '../../core/perpbotError.js';
import type { SweepObjective } from '../config/sweepSchema.js';
import type { SweepMetrics } from './sweepMetrics.js';
import type { Shard, StudyRecording, StudySpan, StudyWindow } from './sweepPlan.js';
import type { Variant } from './sweepVariants.js';

/**
 * A sweep's study: one JSON object per line, a header then one result per replay. While a sweep
 * runs, results are appended as they finish (in whatever order the workers finish them), so a
 * killed sweep loses at most the replays in flight; when every replay of the study is in, the file
 * is rewritten in study order (variants, then recordings, then spans), so one sweep run whole, run
 * again after a kill, or run in shards then merged, leaves the same bytes.
 */
export const STUDY_VERSION = 1;

export interface StudyHeader {
  readonly type: 'study';
  readonly version: typeof STUDY_VERSION;
  /** sha256 of what decides every result: the config without its sweep section, recordings, spans, variants. */
  readonly fingerprint: string;
  /** The config file's text, for best.yaml (no secret: a config file refuses them). */
  readonly config: string;
  readonly strategy: string;
  readonly objective: SweepObjective;
  readonly constraints: readonly string[];
  readonly top: number;
  readonly recordings: readonly StudyRecording[];
  readonly spans: readonly StudySpan[];
  readonly windows: readonly StudyWindow[];
  readonly variants: readonly Variant[];
  /** Only in a shard's study: which slice of the variants it holds. */
  readonly shard?: Shard;
}

export interface StudyResult {
  readonly type: 'result';
  readonly job: string;
  readonly variant: string;
  readonly recording: string;
  readonly span: string;
  readonly metrics: SweepMetrics;
  /** The replay report's path relative to the study's directory. */
  readonly report: string;
  /** sha256 of the report's bytes, as `perpbot replay` writes them. */
  readonly reportSha256: string;
}

export interface Study {
  readonly header: StudyHeader;
  readonly results: ReadonlyMap<string, StudyResult>;
}

export class StudyError extends PerpbotError {}

/**
 * Reads a study. A last line cut short (the sweep was killed while writing it) is left out, as is
 * anything after it; a damaged line before the end is an error naming it.
 */
export function readStudy(path: string): Study {
  const lines = readFileSync(path, 'utf8').split('\n');
  const complete = lines.slice(0, -1);
  const header = parseLine(complete[0], path, 1);
  if (header?.type !== 'study' || header.version !== STUDY_VERSION)
    throw new StudyError(`${path} is not a perpbot sweep study (version ${STUDY_VERSION})`, {
      code: 'SWEEP_STUDY',
      details: { path },
      hints: ['a study is the study.jsonl a `perpbot sweep` writes in its --out directory'],
    });
  const results = new Map<string, StudyResult>();
  for (let i = 1; i < complete.length; i++) {
    const result = parseLine(complete[i], path, i + 1);
    if (result?.type !== 'result' || typeof result.job !== 'string') throw damaged(path, i + 1);
    results.set(result.job, result as unknown as StudyResult);
  }
  return { header: header as unknown as StudyHeader, results };
}

interface RawRecord {
  readonly type?: unknown;
  readonly version?: unknown;
  readonly job?: unknown;
}

function parseLine(line: string | undefined, path: string, number: number): RawRecord | undefined {
  if (line === undefined) return undefined;
  try {
    return JSON.parse(line) as RawRecord;
  } catch {
    throw damaged(path, number);
  }
}

function damaged(path: string, line: number): StudyError {
  return new StudyError(`${path} line ${line} is not a study record`, {
    code: 'SWEEP_STUDY',
    details: { path, line },
    hints: ['start the sweep again with --fresh to discard this study, or give another --out'],
  });
}

/** Writes the study in study order, whole, then moves it into place (never half a file). */
export function writeStudy(path: string, header: StudyHeader, results: readonly StudyResult[]): void {
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, [header, ...results].map((r) => `${JSON.stringify(r)}\n`).join(''));
  renameSync(tmp, path);
}

/** Appends one result (one write of one line: a kill leaves at most that line cut short). */
export function appendResult(path: string, result: StudyResult): void {
  appendFileSync(path, `${JSON.stringify(result)}\n`);
}

/**
 * The study a sweep continues: the results already in the file at `path` when its fingerprint is
 * this sweep's (rewritten clean, without a line a kill cut short), or a new study with none.
 * A study of another sweep (another config, recording or variant list) is refused, not mixed in.
 */
export function openStudy(path: string, header: StudyHeader, fresh: boolean): Map<string, StudyResult> {
  if (fresh || !existsSync(path)) {
    writeStudy(path, header, []);
    return new Map();
  }
  const study = readStudy(path);
  if (study.header.fingerprint !== header.fingerprint || !sameShard(study.header.shard, header.shard))
    throw new StudyError(`${path} holds the study of another sweep (another config, recording, variants or shard)`, {
      code: 'SWEEP_STUDY_MISMATCH',
      details: { path, found: study.header.fingerprint, expected: header.fingerprint },
      hints: ['give another --out, or --fresh to discard that study and start over'],
    });
  writeStudy(path, header, [...study.results.values()]);
  return new Map(study.results);
}

function sameShard(a: Shard | undefined, b: Shard | undefined): boolean {
  return a?.index === b?.index && a?.count === b?.count;
}

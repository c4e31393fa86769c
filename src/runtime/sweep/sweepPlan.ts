import { ConfigError } from '../config/configError.js';
import type { SweepSection } from '../config/sweepSchema.js';
import type { RecordingExtent } from '../replay/sharedFrames.js';
import type { Variant } from './sweepVariants.js';

/** A recording of the study, named by position (`r1`, `r2`...) and known by its content, not its path. */
export interface StudyRecording {
  readonly id: string;
  readonly run: string;
  readonly startMs: number;
  /** The last frame's time. */
  readonly endMs: number;
  readonly frames: number;
  readonly sha256: string;
}

/**
 * A span one replay covers: the whole run (`full`, `toMs` null) or a walk-forward window's train or
 * test span, frames from `fromMs` to before `toMs`. Its id is its offsets from the recording's
 * start ("0s-60s"), so a span two windows share is replayed once.
 */
export interface StudySpan {
  readonly id: string;
  readonly recording: string;
  readonly fromMs: number;
  readonly toMs: number | null;
}

/** Walk-forward window `index` of a recording: tune on `train`, judge on `test` (span ids). */
export interface StudyWindow {
  readonly recording: string;
  readonly index: number;
  readonly train: string;
  readonly test: string;
}

/** One replay of the sweep: a variant over one span of one recording. */
export interface SweepJob {
  /** "v03/r1/full": a result's key in the study. */
  readonly key: string;
  readonly variant: Variant;
  readonly variantIndex: number;
  readonly recordingIndex: number;
  readonly span: StudySpan;
}

export function studyRecordings(extents: readonly RecordingExtent[]): StudyRecording[] {
  return extents.map((e, i) => ({
    id: `r${i + 1}`,
    run: e.header.run,
    startMs: e.header.startedAt,
    endMs: e.lastMs,
    frames: e.frames,
    sha256: e.sha256,
  }));
}

/**
 * The spans to replay: each recording whole, or with walk-forward each window's train span
 * (`train` long) then its test span (`test` long), windows `step` apart from the recording's start,
 * as many as end within it.
 */
export function studySpans(
  recordings: readonly StudyRecording[],
  walkForward: SweepSection['walk_forward'],
): { spans: StudySpan[]; windows: StudyWindow[] } {
  if (walkForward === undefined)
    return {
      spans: recordings.map((r) => ({ id: 'full', recording: r.id, fromMs: r.startMs, toMs: null })),
      windows: [],
    };
  const { train, test } = walkForward;
  const step = walkForward.step ?? test;
  const spans = new Map<string, StudySpan>();
  const windows: StudyWindow[] = [];
  for (const r of recordings) {
    const span = (from: number, to: number): string => {
      const id = `${offsetText(from - r.startMs)}-${offsetText(to - r.startMs)}`;
      spans.set(`${r.id}/${id}`, { id, recording: r.id, fromMs: from, toMs: to });
      return id;
    };
    let index = 0;
    for (let from = r.startMs; from + train + test <= r.endMs + 1; from += step)
      windows.push({
        recording: r.id,
        index: ++index,
        train: span(from, from + train),
        test: span(from + train, from + train + test),
      });
    if (index === 0)
      throw ConfigError.at(
        'sweep.walk_forward',
        `recording ${r.id} (run ${r.run}) spans ${offsetText(r.endMs - r.startMs + 1)}, less than train + test (${offsetText(train + test)})`,
        ['shorten train or test, or record longer'],
      );
  }
  const ordered = [...spans.values()].sort(
    (a, b) => a.recording.localeCompare(b.recording) || a.fromMs - b.fromMs || (a.toMs ?? 0) - (b.toMs ?? 0),
  );
  return { spans: ordered, windows };
}

/** Every replay of the sweep, variant by variant, each over every span in study order. */
export function sweepJobs(
  variants: readonly Variant[],
  recordings: readonly StudyRecording[],
  spans: readonly StudySpan[],
): SweepJob[] {
  return variants.flatMap((variant, variantIndex) =>
    spans.map((span) => ({
      key: jobKey(variant.id, span.recording, span.id),
      variant,
      variantIndex,
      recordingIndex: recordings.findIndex((r) => r.id === span.recording),
      span,
    })),
  );
}

export function jobKey(variant: string, recording: string, span: string): string {
  return `${variant}/${recording}/${span}`;
}

/** `--shard i/n`: the i-th of n slices (1-based). */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/** A shard takes every n-th variant, from its own: a slice every machine computes alike, no coordinator. */
export function inShard(variantIndex: number, shard: Shard | undefined): boolean {
  return shard === undefined || variantIndex % shard.count === shard.index - 1;
}

/** "90s", "30m", "2h", "1500ms": the shortest exact unit. */
export function offsetText(ms: number): string {
  for (const [unit, size] of [
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1_000],
  ] as const)
    if (ms !== 0 && ms % size === 0) return `${ms / size}${unit}`;
  return ms === 0 ? '0s' : `${ms}ms`;
}

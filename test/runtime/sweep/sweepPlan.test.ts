import { describe, expect, it } from 'vitest';
import {
  inShard,
  offsetText,
  studySpans,
  sweepJobs,
  type StudyRecording,
} from '../../../src/runtime/sweep/sweepPlan.js';

const START = Date.UTC(2026, 5, 1, 12);
const recording = (id: string, seconds: number): StudyRecording => ({
  id,
  run: `run-${id}`,
  startMs: START,
  endMs: START + seconds * 1_000,
  frames: 100,
  sha256: 'x',
});

describe('sweep plan', () => {
  it('without walk-forward, one span per recording: the whole run', () => {
    const { spans, windows } = studySpans([recording('r1', 120), recording('r2', 60)], undefined);
    expect(spans).toEqual([
      { id: 'full', recording: 'r1', fromMs: START, toMs: null },
      { id: 'full', recording: 'r2', fromMs: START, toMs: null },
    ]);
    expect(windows).toEqual([]);
  });

  it('walk-forward windows train then test, step apart, as many as end within the recording; shared spans once', () => {
    const { spans, windows } = studySpans([recording('r1', 120)], { train: 60_000, test: 30_000 });
    expect(windows).toEqual([
      { recording: 'r1', index: 1, train: '0s-1m', test: '1m-90s' },
      { recording: 'r1', index: 2, train: '30s-90s', test: '90s-2m' },
    ]);
    expect(spans.map((s) => [s.id, s.fromMs - START, (s.toMs ?? 0) - START])).toEqual([
      ['0s-1m', 0, 60_000],
      ['30s-90s', 30_000, 90_000],
      ['1m-90s', 60_000, 90_000],
      ['90s-2m', 90_000, 120_000],
    ]);
    // train = test = step: each test span is the next window's train span, replayed once.
    const shared = studySpans([recording('r1', 90)], { train: 30_000, test: 30_000 });
    expect(shared.windows.map((w) => [w.train, w.test])).toEqual([
      ['0s-30s', '30s-1m'],
      ['30s-1m', '1m-90s'],
    ]);
    expect(shared.spans.map((s) => s.id)).toEqual(['0s-30s', '30s-1m', '1m-90s']);
  });

  it('refuses walk-forward windows longer than a recording, naming both lengths', () => {
    expect(() => studySpans([recording('r1', 60)], { train: 60_000, test: 30_000 })).toThrow(
      /recording r1 \(run run-r1\) spans 60001ms, less than train \+ test \(90s\)/,
    );
  });

  it('shards slice the variants so that every variant runs in exactly one shard, every span with it', () => {
    const variants = Array.from({ length: 7 }, (_, i) => ({ id: `v${i + 1}`, params: { x: i } }));
    const { spans } = studySpans([recording('r1', 120)], { train: 60_000, test: 30_000 });
    const jobs = sweepJobs(variants, [recording('r1', 120)], spans);
    expect(jobs).toHaveLength(28);
    expect(jobs[0]!.key).toBe('v1/r1/0s-1m');
    const count = 3;
    const slices = Array.from({ length: count }, (_, i) =>
      jobs.filter((j) => inShard(j.variantIndex, { index: i + 1, count })).map((j) => j.key),
    );
    expect(slices.flat().sort()).toEqual(jobs.map((j) => j.key).sort());
    expect(slices[0]!.filter((k) => k.startsWith('v1/'))).toHaveLength(4);
    expect(slices.map((s) => new Set(s.map((k) => k.split('/')[0])).size)).toEqual([3, 2, 2]);
    expect(inShard(5, undefined)).toBe(true);
  });

  it('names offsets in their largest exact unit', () => {
    expect([0, 1_500, 30_000, 90_000, 3_600_000, 5_400_000].map(offsetText)).toEqual([
      '0s',
      '1500ms',
      '30s',
      '90s',
      '1h',
      '90m',
    ]);
  });
});

import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mergeStudies } from '../../../src/runtime/sweep/mergeStudies.js';
import { writeStudy, type StudyHeader, type StudyResult } from '../../../src/runtime/sweep/studyFile.js';
import { variantReportPath } from '../../../src/runtime/sweep/variantFiles.js';
import { sweepMetricsOf } from './support/sweepMetricsOf.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const header: StudyHeader = {
  type: 'study',
  version: 1,
  fingerprint: 'f1',
  config: 'venue: {}\n',
  strategy: 'mm',
  objective: 'net_pnl',
  constraints: [],
  top: 5,
  recordings: [{ id: 'r1', run: 'run', startMs: 0, endMs: 1, frames: 1, sha256: 'x' }],
  spans: [{ id: 'full', recording: 'r1', fromMs: 0, toMs: null }],
  windows: [],
  variants: ['v1', 'v2', 'v3'].map((id, i) => ({ id, params: { x: i } })),
};

/** A shard's directory as `perpbot sweep --shard i/n` leaves it: its study and its reports. */
function shard(index: number, count: number, variants: readonly string[], over: Partial<StudyHeader> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'perpbot-shard-'));
  dirs.push(dir);
  const results = variants.map((variant): StudyResult => {
    const report = variantReportPath(variant, header.spans[0]!, 1);
    const text = `{"variant":"${variant}"}\n`;
    mkdirSync(join(dir, 'variants', variant), { recursive: true });
    writeFileSync(join(dir, report), text);
    return {
      type: 'result',
      job: `${variant}/r1/full`,
      variant,
      recording: 'r1',
      span: 'full',
      metrics: sweepMetricsOf('1', '0'),
      report,
      reportSha256: createHash('sha256').update(text).digest('hex'),
    };
  });
  writeStudy(join(dir, 'study.jsonl'), { ...header, ...over, shard: { index, count } }, results);
  return dir;
}

function out(): string {
  const dir = mkdtempSync(join(tmpdir(), 'perpbot-merged-'));
  dirs.push(dir);
  return dir;
}

describe('perpbot sweep merge', () => {
  it("joins every shard into one study in study order, without the shard, with the shards' reports", () => {
    // Shard 1 of 2 holds v1 and v3 (every second variant from the first), shard 2 holds v2.
    const into = out();
    const merged = mergeStudies([shard(2, 2, ['v2']), shard(1, 2, ['v3', 'v1'])], into);
    expect([...merged.study.results.keys()]).toEqual(['v1/r1/full', 'v2/r1/full', 'v3/r1/full']);
    expect(merged.study.header.shard).toBeUndefined();
    expect(merged.reportsCopied).toBe(3);
    // Each variant's files where a script finds them by its id alone.
    for (const [i, id] of ['v1', 'v2', 'v3'].entries()) {
      expect(readFileSync(join(into, 'variants', id, 'report.json'), 'utf8')).toBe(`{"variant":"${id}"}\n`);
      expect(JSON.parse(readFileSync(join(into, 'variants', id, 'params.json'), 'utf8'))).toEqual({ x: i });
    }
    const whole = out();
    writeStudy(join(whole, 'study.jsonl'), header, [...merged.study.results.values()]);
    expect(readFileSync(merged.studyPath, 'utf8')).toBe(readFileSync(join(whole, 'study.jsonl'), 'utf8'));
  });

  it('refuses a missing shard, a shard twice, a shard of another sweep, an unfinished shard and a whole study', () => {
    expect(() => mergeStudies([shard(1, 2, ['v1', 'v3'])], out())).toThrow(/the shards given are 1 of 2/);
    expect(() => mergeStudies([shard(1, 2, ['v1', 'v3']), shard(1, 2, ['v1', 'v3'])], out())).toThrow(
      /the shards given are 1, 1 of 2/,
    );
    expect(() => mergeStudies([shard(1, 2, ['v1', 'v3']), shard(2, 2, ['v2'], { fingerprint: 'f2' })], out())).toThrow(
      /is a shard of another sweep/,
    );
    expect(() => mergeStudies([shard(1, 2, ['v1']), shard(2, 2, ['v2'])], out())).toThrow(/has 1 of its 2 results/);
    const whole = out();
    writeStudy(join(whole, 'study.jsonl'), header, []);
    expect(() => mergeStudies([whole], out())).toThrow(/the study of a whole sweep, not of a shard/);
  });

  it('refuses a report whose bytes are not the ones its study names', () => {
    const one = shard(1, 2, ['v1', 'v3']);
    writeFileSync(join(one, 'variants', 'v3', 'report.json'), 'changed\n');
    expect(() => mergeStudies([one, shard(2, 2, ['v2'])], out())).toThrow(/is not the report its study names/);
  });
});

describe('variant files', () => {
  it('one report.json a variant when it replays one span, one per recording and span otherwise', () => {
    const full = { id: 'full', recording: 'r1', fromMs: 0, toMs: null };
    const window = { id: '0s-40s', recording: 'r2', fromMs: 0, toMs: 40_000 };
    expect(variantReportPath('v7', full, 1)).toBe(join('variants', 'v7', 'report.json'));
    expect(variantReportPath('v7', window, 4)).toBe(join('variants', 'v7', 'report.r2.0s-40s.json'));
  });
});

import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  appendResult,
  openStudy,
  readStudy,
  writeStudy,
  type StudyHeader,
  type StudyResult,
} from '../../../src/runtime/sweep/studyFile.js';
import { sweepMetricsOf } from './support/sweepMetricsOf.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function path(): string {
  const dir = mkdtempSync(join(tmpdir(), 'perpbot-study-'));
  dirs.push(dir);
  return join(dir, 'study.jsonl');
}

const header: StudyHeader = {
  type: 'study',
  version: 1,
  fingerprint: 'f1',
  config: 'venue: {}\n',
  strategy: 'mm',
  objective: 'net_pnl',
  constraints: [],
  top: 5,
  recordings: [],
  spans: [{ id: 'full', recording: 'r1', fromMs: 0, toMs: null }],
  windows: [],
  variants: [
    { id: 'v1', params: { x: 1 } },
    { id: 'v2', params: { x: 2 } },
  ],
};

const result = (variant: string): StudyResult => ({
  type: 'result',
  job: `${variant}/r1/full`,
  variant,
  recording: 'r1',
  span: 'full',
  metrics: sweepMetricsOf('1', '0'),
  report: `variants/${variant}/report.json`,
  reportSha256: 'aa',
});

describe('the study file', () => {
  it('a new study holds its header; results appended as they finish; a second open continues it', () => {
    const file = path();
    expect(openStudy(file, header, false).size).toBe(0);
    appendResult(file, result('v2'));
    const again = openStudy(file, header, false);
    expect([...again.keys()]).toEqual(['v2/r1/full']);
    // --fresh starts over.
    expect(openStudy(file, header, true).size).toBe(0);
    expect(readStudy(file).results.size).toBe(0);
  });

  it('leaves out a last line a kill cut short, and rewrites the study clean before going on', () => {
    const file = path();
    openStudy(file, header, false);
    appendResult(file, result('v1'));
    appendFileSync(file, JSON.stringify(result('v2')).slice(0, 40));
    expect([...readStudy(file).results.keys()]).toEqual(['v1/r1/full']);
    openStudy(file, header, false);
    appendResult(file, result('v2'));
    expect([...readStudy(file).results.keys()]).toEqual(['v1/r1/full', 'v2/r1/full']);
  });

  it('refuses a damaged line before the end, and a study of another sweep, saying what to do', () => {
    const file = path();
    writeFileSync(file, `${JSON.stringify(header)}\nnot json\n${JSON.stringify(result('v1'))}\n`);
    expect(() => readStudy(file)).toThrow(/line 2 is not a study record/);
    const other = path();
    writeStudy(other, { ...header, fingerprint: 'f2' }, []);
    expect(() => openStudy(other, header, false)).toThrow(/holds the study of another sweep/);
    const shard = path();
    writeStudy(shard, { ...header, shard: { index: 1, count: 2 } }, []);
    expect(() => openStudy(shard, header, false)).toThrow(/another sweep/);
    writeFileSync(other, 'something else\n');
    expect(() => readStudy(other)).toThrow(/line 1 is not a study record/);
  });

  it('writes header and results one JSON object per line, in the order given', () => {
    const file = path();
    writeStudy(file, header, [result('v1'), result('v2')]);
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines).toHaveLength(4);
    expect(JSON.parse(lines[2]!)).toEqual(result('v2'));
    expect(lines[3]).toBe('');
  });
});

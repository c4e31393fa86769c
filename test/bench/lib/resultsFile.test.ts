import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Figure } from '../../../bench/lib/figure.js';
import { upsertFigure } from '../../../bench/lib/resultsFile.js';

const figure = (name: string, value: number): Figure => ({
  name,
  value,
  unit: 'x',
  baseline_name: 'b',
  baseline_value: 1,
  target: 't',
  target_met: true,
});

describe('upsertFigure', () => {
  it('replaces the named figure and keeps the others', () => {
    const file = pathToFileURL(join(mkdtempSync(join(tmpdir(), 'bench-')), 'results.json'));
    writeFileSync(file, JSON.stringify({ machine: 'old', figures: [figure('permit_sign', 1), figure('soak_rss', 2)] }));
    upsertFigure(file, figure('soak_rss', 3));
    const written = JSON.parse(readFileSync(file, 'utf8')) as { machine: string; figures: Figure[] };
    expect(written.figures.map((f) => [f.name, f.value])).toEqual([
      ['permit_sign', 1],
      ['soak_rss', 3],
    ]);
    expect(written.machine).not.toBe('old');
  });

  it('creates the file when there is none', () => {
    const file = pathToFileURL(join(mkdtempSync(join(tmpdir(), 'bench-')), 'results.json'));
    upsertFigure(file, figure('soak_rss', 5));
    expect((JSON.parse(readFileSync(file, 'utf8')) as { figures: Figure[] }).figures).toHaveLength(1);
  });
});

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ALL_FIGURES } from '../../bench/figures/index.js';
import type { Figure, FigureBench } from '../../bench/lib/figure.js';
import { runFigures } from '../../bench/lib/runFigures.js';

/**
 * Every figure of `npm run bench`, run at its smoke size through the bench's own runner: its
 * set-up, its checks (a refused order, a collapsed id, a failed replay throw) and its result record
 * in a results file. Nothing runs the whole bench in CI, so this is what notices a change that
 * breaks a figure. The values at this size mean nothing and no target is judged.
 */
const dir = mkdtempSync(join(tmpdir(), 'perpbot-bench-smoke-'));
const results = pathToFileURL(join(dir, 'results.json'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function recorded(): Figure[] {
  return (JSON.parse(readFileSync(results, 'utf8')) as { figures: Figure[] }).figures;
}

describe('npm run bench at the smoke size', () => {
  it.each(ALL_FIGURES.map((bench) => [bench.name, bench] as const))(
    '%s runs whole and records a usable figure',
    async (name, bench) => {
      const figures = await runFigures([bench], 'smoke', results);
      expect(figures.map((f) => f.name)).toContain(name);
      for (const figure of figures) {
        expect(Number.isFinite(figure.value)).toBe(true);
        expect(figure.value).toBeGreaterThan(0);
        expect(recorded().find((f) => f.name === figure.name)).toEqual(JSON.parse(JSON.stringify(figure)));
      }
    },
    90_000,
  );

  it('a figure that throws fails the run, and one with an unusable record too', async () => {
    const throwing: FigureBench = { name: 'throws', run: () => Promise.reject(new Error('BENCH_LOAD_FAILED')) };
    await expect(runFigures([throwing], 'smoke', results)).rejects.toThrow('BENCH_LOAD_FAILED');
    const unusable: FigureBench = {
      name: 'nan',
      run: () => Promise.resolve({ name: 'nan', value: Number.NaN, unit: 'x', target: '>= 1', target_met: false }),
    };
    await expect(runFigures([unusable], 'smoke', results)).rejects.toMatchObject({ code: 'BENCH_FIGURE_RECORD' });
    const noVerdict: FigureBench = {
      name: 'no-verdict',
      run: () => Promise.resolve({ name: 'no-verdict', value: 1, unit: 'x', target: '>= 1' }),
    };
    await expect(runFigures([noVerdict], 'smoke', results)).rejects.toThrow(/verdict/);
    expect(recorded().map((f) => f.name)).not.toContain('nan');
  });
});

import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { Figure } from '../../bench/lib/figure.js';
import { runFigureInOwnProcess } from '../../bench/lib/figureProcess.js';

/**
 * `npm run bench` as a user runs it: the command runs each named figure in a process of its own and
 * prints their table; a figure whose process fails fails the run with its name. At the smoke size,
 * with the two cheapest figures, into a scratch results file.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'perpbot-bench-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('bench/run.ts', () => {
  it('measures each figure in its own process and prints them all in one table', async () => {
    const results = join(dir, 'results.json');
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'bench/run.ts', '--scale', 'smoke', '--results', results, 'permit_sign', 'engine_overhead'],
      { cwd: ROOT, timeout: 60_000 },
    );
    expect(stderr).toContain('measuring permit_sign (smoke size)...');
    expect(stderr).toContain('measuring engine_overhead (smoke size)...');
    expect(stdout).toMatch(/'permit_sign'[\s\S]*'engine_overhead'/);
    expect(stdout).toContain(`wrote ${results}`);
    const recorded = (JSON.parse(readFileSync(results, 'utf8')) as { figures: Figure[] }).figures;
    expect(recorded.map((f) => f.name).sort()).toEqual(['engine_overhead', 'permit_sign']);
    for (const figure of recorded) expect(Number.isFinite(figure.value)).toBe(true);
  }, 60_000);

  it('a figure whose process fails fails the run, naming it', async () => {
    await expect(runFigureInOwnProcess('no_such_figure', 'smoke', join(dir, 'other.json'))).rejects.toMatchObject({
      code: 'BENCH_FIGURE_FAILED',
      message: expect.stringContaining('no_such_figure') as unknown,
    });
  }, 60_000);
});

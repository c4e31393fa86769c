import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PerpbotError } from '../../src/core/perpbotError.js';
import type { BenchScale, Figure } from './figure.js';

const RUN = fileURLToPath(new URL('../run.ts', import.meta.url));

/**
 * Runs one figure's bench in a fresh Node process (`bench/run.ts --in-process`), as a bot or a
 * replay runs in its own: what the figures before it made the JIT and the heap learn (other call
 * shapes at shared sites, a grown heap) does not bend its reading. Its output goes to ours; it
 * records its figures in the results file itself and hands them back through a scratch file.
 */
export async function runFigureInOwnProcess(name: string, scale: BenchScale, results: string): Promise<Figure[]> {
  const scratch = mkdtempSync(join(tmpdir(), 'perpbot-bench-figure-'));
  const out = join(scratch, 'figures.json');
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      const args = [
        '--import',
        'tsx',
        RUN,
        '--in-process',
        '--figures-out',
        out,
        '--scale',
        scale,
        '--results',
        results,
      ];
      const child = spawn(process.execPath, [...args, name], { stdio: 'inherit' });
      child.on('error', reject);
      child.on('close', resolve);
    });
    if (code !== 0) {
      throw new PerpbotError(`bench figure ${name} failed in its own process (exit ${String(code)})`, {
        code: 'BENCH_FIGURE_FAILED',
        details: { figure: name, exitCode: String(code) },
        hints: [`its error is printed above; run it alone with: npm run bench -- ${name}`],
      });
    }
    return (JSON.parse(readFileSync(out, 'utf8')) as { figures: Figure[] }).figures;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

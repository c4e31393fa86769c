import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PerpbotError } from '../../../src/core/perpbotError.js';

const REPO = join(import.meta.dirname, '..', '..', '..');

export interface PerpbotRun {
  readonly stdout: string;
  readonly stderr: string;
  /** From the spawn to the exit: start-up included, as a user waits for it. */
  readonly wallMs: number;
}

/**
 * `perpbot ARGS` run from the checkout as a user's shell runs it (node with tsx's loader, the
 * TypeScript CLI), from the repository root; fails unless it exits 0.
 */
export function runPerpbot(args: readonly string[], timeoutMs = 900_000): Promise<PerpbotRun> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(REPO, 'src', 'runtime', 'cli', 'main.ts'), ...args],
      { cwd: REPO, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error !== null)
          reject(
            new PerpbotError(`perpbot ${args[0] ?? ''} failed: ${stderr.trim().split('\n').slice(-3).join(' / ')}`, {
              code: 'BENCH_PROCESS_START',
              details: { args: args.join(' ') },
            }),
          );
        else resolve({ stdout, stderr, wallMs: performance.now() - started });
      },
    );
  });
}

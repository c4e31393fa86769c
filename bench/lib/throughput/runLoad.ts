import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PerpbotError } from '../../../src/core/perpbotError.js';
import type { LoadJob, LoadResult } from './loadJob.js';

/** Runs one load job in a fresh client process (`bench/throughputClient.ts`) and returns its result. */
export async function runLoad(job: LoadJob): Promise<LoadResult> {
  const dir = mkdtempSync(join(tmpdir(), 'perpbot-load-'));
  const path = join(dir, 'job.json');
  writeFileSync(path, JSON.stringify(job));
  try {
    const child = fork(fileURLToPath(new URL('../../throughputClient.ts', import.meta.url)), [path], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return await new Promise<LoadResult>((resolve, reject) => {
      let result: LoadResult | undefined;
      child.once('message', (message) => (result = message as LoadResult));
      child.once('error', reject);
      // 'close', not 'exit': the IPC channel is one of the child's stdio, and its last message (the
      // result) may be read after 'exit' has fired on a loaded machine.
      child.once('close', (code) => {
        if (result !== undefined) resolve(result);
        else
          reject(
            new PerpbotError(`the load client exited with code ${code} without a result`, {
              code: 'BENCH_LOAD_CLIENT',
              details: { url: job.url },
            }),
          );
      });
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

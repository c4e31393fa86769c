import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { PerpbotError } from '../../core/perpbotError.js';
import type { SweepJobContext, SweepJobInput, SweepJobOutput } from './sweepJob.js';

/** What a worker thread starts with: the job context without its logger (each makes its own). */
export type WorkerContext = Omit<SweepJobContext, 'log'>;

/** Why a replay failed, in a form a worker thread can post. */
export interface JobError {
  readonly message: string;
  readonly code: string | undefined;
  readonly stack: string | undefined;
}

export type WorkerAnswer =
  | { readonly type: 'done'; readonly output: SweepJobOutput }
  | { readonly type: 'failed'; readonly key: string; readonly error: JobError };

/**
 * Runs a sweep's replays on worker threads, one replay per thread at a time, handing out the next
 * replay as each finishes (a slow variant holds up no other). Every worker shares the recordings'
 * memory. The first replay that throws stops the pool: the others are not started, those running
 * are abandoned, and the error is thrown; what finished before is already with `onDone`.
 */
export async function runOnWorkers(
  context: WorkerContext,
  jobs: readonly SweepJobInput[],
  size: number,
  onDone: (output: SweepJobOutput) => void,
  signal: AbortSignal,
): Promise<void> {
  const workers = Array.from({ length: Math.max(1, Math.min(size, jobs.length)) }, () => startWorker(context));
  let next = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      let running = 0;
      const give = (worker: Worker): void => {
        if (signal.aborted) return reject(abortedBy(signal));
        const job = jobs[next++];
        if (job === undefined) {
          if (running === 0) resolve();
          return;
        }
        running++;
        worker.postMessage(job);
      };
      signal.addEventListener('abort', () => reject(abortedBy(signal)), { once: true });
      for (const worker of workers) {
        worker.on('message', (answer: WorkerAnswer) => {
          running--;
          if (answer.type === 'failed') return reject(jobFailed(answer.key, answer.error));
          try {
            onDone(answer.output);
          } catch (error) {
            return reject(error instanceof Error ? error : new Error(String(error)));
          }
          give(worker);
          if (running === 0 && next >= jobs.length) resolve();
        });
        worker.on('error', reject);
        worker.on('exit', (code) => {
          if (code !== 0) reject(new PerpbotError(`a sweep worker exited with code ${code}`, { code: 'SWEEP_FAILED' }));
        });
      }
      for (const worker of workers) give(worker);
    });
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

export function jobFailed(key: string, cause: JobError): PerpbotError {
  const error = new PerpbotError(`sweep replay ${key} failed: ${cause.message}`, {
    code: 'SWEEP_FAILED',
    details: { job: key, ...(cause.code === undefined ? {} : { cause: cause.code }) },
    hints: ['the results finished before it are in the study: fix the cause and run the same command to go on'],
  });
  if (cause.stack !== undefined) error.stack = `${error.stack ?? ''}\nreplay: ${cause.stack}`;
  return error;
}

export function describeJobError(error: unknown): JobError {
  if (!(error instanceof Error)) return { message: String(error), code: undefined, stack: undefined };
  const code = (error as { code?: unknown }).code;
  return { message: error.message, code: typeof code === 'string' ? code : undefined, stack: error.stack };
}

export function abortedBy(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('interrupted');
}

/**
 * The worker's module beside this one: compiled JavaScript in the package; in a checkout the
 * TypeScript source, imported once tsx's loader is registered in the new thread (a worker thread
 * does not inherit the loader hooks of the thread that starts it).
 */
function startWorker(context: WorkerContext): Worker {
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(fileURLToPath(new URL('./sweepWorker.js', import.meta.url)), { workerData: context });
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./sweepWorker.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(boot, { eval: true, workerData: context });
}

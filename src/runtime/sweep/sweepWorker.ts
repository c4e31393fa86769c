/**
 * A sweep's worker thread: runs the replays the pool hands it, one at a time, and answers each with
 * its report and figures (or the error that stopped it). The recordings arrive once, in shared
 * memory, with the rest of the context (`SweepPool`).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createLogger } from '../operations/logging/createLogger.js';
import { runSweepJob, type SweepJobContext, type SweepJobInput } from './sweepJob.js';
import { describeJobError, type WorkerAnswer, type WorkerContext } from './sweepPool.js';

// A worker thread inherits no loader hooks, and importing tsx registers its hooks on the main thread
// only: a strategy written in TypeScript needs tsx's loader registered here, in this thread (in a
// checkout the pool registered it before importing this module).
if (!import.meta.url.endsWith('.ts') && data().config.strategies.some((s) => /\.(?:ts|mts|cts)$/.test(s.module)))
  (await import('tsx/esm/api')).register();

function data(): WorkerContext {
  return workerData as WorkerContext;
}

const context: SweepJobContext = {
  ...data(),
  log: createLogger({ level: 'silent', pretty: false, destination: process.stderr }),
};
parentPort?.on('message', (job: SweepJobInput) => {
  runSweepJob(context, job).then(
    (output) => parentPort?.postMessage({ type: 'done', output } satisfies WorkerAnswer),
    (error: unknown) =>
      parentPort?.postMessage({ type: 'failed', key: job.key, error: describeJobError(error) } satisfies WorkerAnswer),
  );
});

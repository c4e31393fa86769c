import { createLogger } from '../operations/logging/createLogger.js';
import { runSweepJob, type SweepJobInput, type SweepJobOutput } from './sweepJob.js';
import { abortedBy, describeJobError, jobFailed, type WorkerContext } from './sweepPool.js';

/**
 * A sweep's replays one after another on this thread, for a pool of one: a worker thread would
 * load perpbot's modules, tsx's loader and the strategy a second time (about a CPU-second, more
 * than a short replay takes) only to run what this thread, idle meanwhile, can run. It keeps the
 * pool's contract: each result goes to `onDone` as it finishes, the first replay that throws stops
 * the sweep with the same error, and an abort stops it at once (the replay under way is left to
 * the process's exit, as the pool leaves its threads to `terminate`).
 */
export async function runInThread(
  context: WorkerContext,
  jobs: readonly SweepJobInput[],
  onDone: (output: SweepJobOutput) => void,
  signal: AbortSignal,
): Promise<void> {
  const here = { ...context, log: createLogger({ level: 'silent', pretty: false, destination: process.stderr }) };
  for (const job of jobs) {
    if (signal.aborted) throw abortedBy(signal);
    let output: SweepJobOutput;
    try {
      output = await untilAborted(runSweepJob(here, job), signal);
    } catch (error) {
      if (signal.aborted) throw abortedBy(signal);
      throw jobFailed(job.key, describeJobError(error));
    }
    onDone(output);
  }
}

function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abort = (): void => reject(abortedBy(signal));
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

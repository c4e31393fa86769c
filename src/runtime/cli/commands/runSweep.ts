import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { tickEvery } from '../../../core/tickEvery.js';
import { readStudy } from '../../sweep/studyFile.js';
import { SweepProgressDisplay } from '../../sweep/sweepProgress.js';
import { formatSweepSummary, writeSweepOutputs } from '../../sweep/sweepOutputs.js';
import { sweepRecordings, type SweepOptions, type SweepRun } from '../../sweep/sweepRecordings.js';
import { configPathOf, loadCliConfig } from '../cliContext.js';
import type { CliIo } from '../cliIo.js';
import { CliUsageError } from '../cliUsageError.js';
import type { ParsedArgs } from '../commandSpec.js';
import { booleanFlag, stringFlag } from '../parseCommandArgs.js';
import { shardFlag, sweepSectionOf, workerCount } from './sweepFlags.js';

/**
 * `perpbot sweep REC...`: every variant over every recording on worker threads, the study written
 * as results come, then the ranking printed and the page and best.yaml written beside the study.
 * Interrupted (Ctrl-C), it says how far it got: the same command goes on from there.
 */
export async function runSweep(args: ParsedArgs, io: CliIo): Promise<number> {
  const recordings = args.positionals.map((p) => resolve(io.cwd, p));
  for (const rec of recordings)
    if (!existsSync(rec))
      throw new CliUsageError(`no recording at ${rec}`, [
        'pass directories `perpbot record` wrote, or segments of them',
      ]);
  const config = await loadCliConfig(args, io);
  const configText = readFileSync(configPathOf(args, io), 'utf8');
  const section = sweepSectionOf(config, args);
  const first = recordings[0]!;
  const out = resolve(io.cwd, stringFlag(args, 'out') ?? join(dirname(first), `${basename(first)}.sweep`));
  const progress = progressOn(io);
  let run: SweepRun;
  try {
    run = await sweepRecordings({
      recordings,
      config,
      configText,
      section,
      cwd: io.cwd,
      out,
      shard: shardFlag(args),
      fresh: booleanFlag(args, 'fresh'),
      workers: workerCount(section),
      signal: io.shutdown,
      progress: progress.line,
      advanced: progress.advanced,
    });
  } catch (error) {
    progress.stop();
    if (io.shutdown.aborted && existsSync(join(out, 'study.jsonl'))) {
      const done = readStudy(join(out, 'study.jsonl')).results.size;
      io.stderr.write(`sweep interrupted with ${done} result(s) in ${out}: run the same command again to go on\n`);
    }
    throw error;
  }
  progress.stop();
  const study = readStudy(run.studyPath);
  const outputs = writeSweepOutputs(out, study);
  const speed = run.wallMs > 0 ? `, ${Math.round(run.replayedMs / run.wallMs)}x real time together` : '';
  io.stdout.write(
    `swept ${run.ran.length} replay(s) in ${(run.wallMs / 1000).toFixed(1)} s (${run.skipped} already in the study${speed})\n` +
      formatSweepSummary(outputs.summary, { page: outputs.page, best: outputs.best, study: run.studyPath }),
  );
  const failed = run.results.filter((r) => r.metrics.failures > 0).length;
  if (failed > 0) io.stderr.write(`${failed} replay(s) had failures inside the replay machinery: see their reports\n`);
  return failed > 0 ? 1 : 0;
}

interface SweepProgress {
  readonly line: (text: string) => void;
  readonly advanced: NonNullable<SweepOptions['advanced']>;
  readonly stop: () => void;
}

/** The sweep's lines on stderr; on a terminal its bar too, redrawn each second (elapsed and ETA move). */
function progressOn(io: CliIo): SweepProgress {
  const tty = 'isTTY' in io.stderr && io.stderr.isTTY === true;
  const display = new SweepProgressDisplay(io.stderr, tty);
  const startedMs = io.clock.now();
  let advance = { done: 0, of: 0 };
  const redraw = (): void => display.advance({ ...advance, elapsedMs: io.clock.now() - startedMs });
  const ticking = new AbortController();
  if (tty) tickEvery(io.clock, 1_000, ticking.signal, redraw, () => undefined).catch(() => undefined);
  return {
    line: (text) => display.line(text),
    advanced: (done, of) => {
      advance = { done, of };
      redraw();
    },
    stop: () => {
      ticking.abort();
      display.done();
    },
  };
}

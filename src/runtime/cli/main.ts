import { systemClock } from '../../core/clock.js';
import type { CliIo } from './cliIo.js';
import { runCli } from './runCli.js';

/**
 * The process around `runCli`: real streams and environment, and SIGINT/SIGTERM turned into the
 * shutdown signal; a second one at least a second later exits at once. (Ctrl-C reaches every
 * process of the group and the launchers relay it too, so one keypress can arrive several times
 * within milliseconds.) Exits once stdout has drained, so the last log lines are not lost.
 */
const FORCE_EXIT_AFTER_MS = 1_000;
const shutdown = new AbortController();
let firstSignalAt: number | undefined;
const onSignal = (signal: NodeJS.Signals): void => {
  if (firstSignalAt !== undefined) {
    if (Date.now() - firstSignalAt >= FORCE_EXIT_AFTER_MS) process.exit(130);
    return;
  }
  firstSignalAt = Date.now();
  shutdown.abort(new Error(`received ${signal}`));
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

const io: CliIo = {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  clock: systemClock,
  shutdown: shutdown.signal,
};

const code = await runCli(process.argv.slice(2), io);
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));

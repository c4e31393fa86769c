import { systemClock } from '../../core/clock.js';
import type { CliIo } from './cliIo.js';
import { formatFatalError, installFatalErrorHandlers } from './fatalErrorHandlers.js';
import { EXIT_FAILURE, runCli } from './runCli.js';

/**
 * The process around `runCli`: real streams and environment, and SIGINT/SIGTERM turned into the
 * shutdown signal; a second one at least a second later exits at once. (Ctrl-C reaches every
 * process of the group and the launchers relay it too, so one keypress can arrive several times
 * within milliseconds.) An error nobody caught and no strategy can be blamed for prints one line,
 * shuts down the same way (orders cancelled per the config) and exits 1; if the shutdown hangs,
 * the process exits anyway after FATAL_EXIT_AFTER_MS. Exits once stdout has drained, so the last
 * log lines are not lost.
 */
const FORCE_EXIT_AFTER_MS = 1_000;
const FATAL_EXIT_AFTER_MS = 60_000;
const shutdown = new AbortController();
let fatal = false;
installFatalErrorHandlers((error, origin) => {
  if (fatal) return;
  fatal = true;
  process.stderr.write(formatFatalError(error, origin));
  setTimeout(() => process.exit(EXIT_FAILURE), FATAL_EXIT_AFTER_MS).unref();
  shutdown.abort(new Error(`fatal ${origin}`));
});
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
process.stdout.write('', () => process.stderr.write('', () => process.exit(fatal ? EXIT_FAILURE : code)));

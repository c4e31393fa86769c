import type { Clock } from '../../core/clock.js';
import type { TextSink } from '../../core/textSink.js';

/**
 * Everything a command touches outside its arguments, passed in so each command runs in a test
 * without a process: output streams, environment, working directory, clock, and the shutdown
 * signal that SIGINT/SIGTERM abort.
 */
export interface CliIo {
  readonly stdout: TextSink;
  readonly stderr: TextSink;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly clock: Clock;
  readonly shutdown: AbortSignal;
}

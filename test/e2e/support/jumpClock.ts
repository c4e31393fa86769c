import { abortError } from '../../../src/core/abortError.js';
import type { Clock } from '../../../src/core/clock.js';

interface Sleeper {
  readonly at: number;
  timer: NodeJS.Timeout | undefined;
  wake(): void;
}

/**
 * Wall-clock time that a test can move forward: real I/O (the simulator, the bot's sockets) keeps
 * its pace, and `jump` makes a long stretch pass at once, waking every sleeper whose time came.
 * Shared by the simulator and the bot, so both see the same time (permits, deadlines, outages).
 * A ManualClock would stop the real-time parts between steps; this one only adds to them.
 */
export class JumpClock implements Clock {
  private offsetMs = 0;
  private readonly sleepers = new Set<Sleeper>();

  now(): number {
    return Date.now() + this.offsetMs;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted === true) return Promise.reject(abortError(signal.reason));
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        clearTimeout(sleeper.timer);
        this.sleepers.delete(sleeper);
        reject(abortError(signal?.reason));
      };
      const sleeper: Sleeper = {
        at: this.now() + ms,
        timer: undefined,
        wake: () => {
          clearTimeout(sleeper.timer);
          this.sleepers.delete(sleeper);
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      this.sleepers.add(sleeper);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.arm(sleeper);
    });
  }

  /** Moves time forward by `ms`: due sleepers wake now, the others' timers shorten. */
  async jump(ms: number): Promise<void> {
    this.offsetMs += ms;
    for (const sleeper of [...this.sleepers].sort((a, b) => a.at - b.at)) this.arm(sleeper);
    // Let the woken tasks run (and go back to sleep) before the caller looks.
    await new Promise<void>((r) => setImmediate(r));
  }

  private arm(sleeper: Sleeper): void {
    clearTimeout(sleeper.timer);
    const left = sleeper.at - this.now();
    if (left <= 0) sleeper.wake();
    else sleeper.timer = setTimeout(() => this.arm(sleeper), left);
  }
}

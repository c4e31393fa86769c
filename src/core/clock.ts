import { abortError } from './abortError.js';

/**
 * Time is injected, never read from globals inside logic: tests pass a manual clock and run in
 * virtual time; production passes `systemClock`.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Resolves after `ms`, or rejects with the signal's reason when aborted (see `abortError`). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortError(signal.reason));
        return;
      }
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(abortError(signal?.reason));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/** Whole Unix seconds, as permits and logins use them. */
export function unixSeconds(clock: Clock): number {
  return Math.floor(clock.now() / 1000);
}

/** A clock for tests: time moves only when `advance` is called. */
export class ManualClock implements Clock {
  private current: number;
  private waiters: { at: number; resolve: () => void; reject: (e: unknown) => void }[] = [];

  constructor(startMs = 1_700_000_000_000) {
    this.current = startMs;
  }

  now(): number {
    return this.current;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortError(signal.reason));
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(abortError(signal?.reason));
      };
      // A woken sleeper lets go of the signal, so a long-lived signal does not collect listeners.
      const waiter = {
        at: this.current + ms,
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        reject,
      };
      this.waiters.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Moves time forward and wakes every sleeper whose time has come, in order. */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    for (;;) {
      // Let pending tasks run (and possibly go to sleep) before looking for the next sleeper.
      await new Promise<void>((r) => setImmediate(r));
      const due = this.waiters.filter((w) => w.at <= target).sort((a, b) => a.at - b.at)[0];
      if (due === undefined) break;
      this.waiters = this.waiters.filter((w) => w !== due);
      this.current = Math.max(this.current, due.at);
      due.resolve();
    }
    this.current = target;
  }

  get pendingSleeps(): number {
    return this.waiters.length;
  }
}

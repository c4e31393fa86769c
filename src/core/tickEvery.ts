import type { Clock } from './clock.js';

/**
 * Calls `tick` every `everyMs` on the injected clock until `signal` aborts (so tests drive it in
 * virtual time). A tick that throws is reported and the loop goes on: what it watches (freshness,
 * kill switches, the status line) must not stop watching because of one bad read.
 */
export async function tickEvery(
  clock: Clock,
  everyMs: number,
  signal: AbortSignal,
  tick: () => void,
  onError: (error: unknown) => void,
): Promise<void> {
  while (!signal.aborted) {
    try {
      await clock.sleep(everyMs, signal);
    } catch {
      return;
    }
    try {
      tick();
    } catch (error) {
      onError(error);
    }
  }
}

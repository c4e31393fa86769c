import type { Clock } from '../../core/clock.js';
import { withRetry } from '../../core/withRetry.js';

export interface ReconnectLoopDeps<S> {
  readonly open: () => Promise<S>;
  /** Runs one connection until it ends; says why, and whether it ever delivered channel data. */
  readonly live: (session: S) => Promise<{ reason: string; deliveredData: boolean }>;
  /** Delay before attempt n (1-based), e.g. `exponentialBackoff(...)`. */
  readonly backoff: (attempt: number) => number;
  readonly clock: Clock;
  /** Aborting ends the loop (client closed). */
  readonly signal: AbortSignal;
  readonly onConnectFailed: (error: unknown, delayMs: number) => void;
  readonly onDropped: (reason: string, delayMs: number) => void;
}

/**
 * Keeps one connection alive until the signal aborts: opens with backoff (through `withRetry`),
 * lives, and after a drop waits and opens again. A connection that never delivered data counts as
 * one more failure, so a venue that accepts and drops at once is retried with growing delays
 * instead of in a tight loop; one that worked starts the backoff over.
 */
export async function runReconnectLoop<S>(deps: ReconnectLoopDeps<S>): Promise<void> {
  let drops = 0;
  while (!deps.signal.aborted) {
    let session: S;
    try {
      session = await withRetry(() => deps.open(), {
        attempts: Number.POSITIVE_INFINITY,
        delayMs: (attempt) => deps.backoff(drops + attempt),
        shouldRetry: () => !deps.signal.aborted,
        clock: deps.clock,
        signal: deps.signal,
        onRetry: ({ error, delayMs }) => deps.onConnectFailed(error, delayMs),
      });
    } catch {
      return; // aborted while connecting
    }
    const { reason, deliveredData } = await deps.live(session);
    if (deps.signal.aborted) return;
    drops = deliveredData ? 1 : drops + 1;
    const delayMs = deps.backoff(drops);
    deps.onDropped(reason, delayMs);
    try {
      await deps.clock.sleep(delayMs, deps.signal);
    } catch {
      return;
    }
  }
}

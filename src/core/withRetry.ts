import { systemClock, type Clock } from './clock.js';

/**
 * The one retry helper: every retry in the project goes through here, so attempts, delays and
 * cancellation behave the same everywhere. What is retryable is decided by the caller's
 * `shouldRetry`, which each layer keeps in exactly one place.
 */
export interface RetryOptions {
  /** Total attempts including the first (>= 1). */
  readonly attempts: number;
  /** Delay before attempt `n + 1`, given the failed attempt number `n` (1-based). */
  readonly delayMs: (attempt: number, error: unknown) => number;
  readonly shouldRetry: (error: unknown, attempt: number) => boolean;
  readonly signal?: AbortSignal;
  readonly clock?: Clock;
  readonly onRetry?: (info: { attempt: number; error: unknown; delayMs: number }) => void;
}

export async function withRetry<T>(operation: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const clock = options.clock ?? systemClock;
  for (let attempt = 1; ; attempt++) {
    options.signal?.throwIfAborted();
    try {
      return await operation(attempt);
    } catch (error) {
      if (attempt >= options.attempts || !options.shouldRetry(error, attempt)) throw error;
      const delayMs = Math.max(0, options.delayMs(attempt, error));
      options.onRetry?.({ attempt, error, delayMs });
      await clock.sleep(delayMs, options.signal);
    }
  }
}

/**
 * Exponential backoff with full jitter: base × 2^(attempt-1), capped, times a random factor in
 * [1 - jitter, 1]. `random` is injectable so tests are deterministic.
 */
export function exponentialBackoff(options: {
  readonly baseMs: number;
  readonly maxMs: number;
  readonly jitter?: number;
  readonly random?: () => number;
}): (attempt: number) => number {
  const jitter = options.jitter ?? 0.5;
  const random = options.random ?? Math.random;
  return (attempt) => {
    const raw = Math.min(options.maxMs, options.baseMs * 2 ** Math.max(0, attempt - 1));
    return Math.round(raw * (1 - jitter * random()));
  };
}

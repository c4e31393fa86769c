import type { Clock } from '../../../core/clock.js';
import { exponentialBackoff, withRetry } from '../../../core/withRetry.js';
import { delayWithin } from '../../../venue/rest/readRetry.js';
import { isTransientFailure } from '../../../venue/rest/requestFaults.js';
import { VenueTransportError } from '../../../venue/venueTransportError.js';
import { StartupDeadlineError } from './startupDeadlineError.js';

/** Between runs of a step: 1 s doubling to 10 s, full jitter, unless the venue sent Retry-After. */
export const DEFAULT_STEP_BACKOFF = Object.freeze({ baseMs: 1_000, maxMs: 10_000 });

export interface UntilDeadlineOptions {
  /** How long the step may keep failing transiently, from this call. */
  readonly deadlineMs: number;
  readonly clock: Clock;
  readonly log: { warn(object: object, message: string): void };
  /** The caller's stop (e.g. shutdown): ends the wait at once with its reason, not a deadline error. */
  readonly signal?: AbortSignal;
  readonly backoff?: { readonly baseMs: number; readonly maxMs: number; readonly random?: () => number };
}

/** A step runner bound to its options: what a command or start-up hands to each of its steps. */
export type VenueWait = <T>(what: string, step: (signal: AbortSignal) => Promise<T>) => Promise<T>;

/**
 * Runs `step` again while it fails transiently by the venue table (`isTransientFailure`: a read
 * that timed out, found no connection, got a 5xx or a 429), logging each wait with what it waits
 * for, until the deadline; then throws one `StartupDeadlineError` naming the step and the last
 * failure. Any other failure is thrown as it is at once. The step gets a signal that aborts at
 * the deadline (or when the caller's does) and must pass it to its reads. A step is run again
 * from its start, so it must be safe to repeat: reads only, or actions that check state first.
 */
export async function untilDeadline<T>(
  what: string,
  step: (signal: AbortSignal) => Promise<T>,
  o: UntilDeadlineOptions,
): Promise<T> {
  const started = o.clock.now();
  const deadlineAt = started + o.deadlineMs;
  const cut = deadlineSignal(o);
  const backoff = exponentialBackoff({ ...DEFAULT_STEP_BACKOFF, ...o.backoff, jitter: 1 });
  let attempts = 0;
  let lastFailure: unknown;
  let planned = 0;
  try {
    return await withRetry(
      (n) => {
        attempts = n;
        return step(cut.signal);
      },
      {
        attempts: Number.POSITIVE_INFINITY,
        shouldRetry: (error, n) => {
          if (!isTransientFailure(error)) return false;
          lastFailure = error;
          planned = delayWithin(error, n, backoff, deadlineAt - o.clock.now(), o.deadlineMs);
          return o.clock.now() + planned < deadlineAt;
        },
        delayMs: () => planned,
        clock: o.clock,
        signal: cut.signal,
        onRetry: ({ attempt, error, delayMs }) =>
          logWait(o, what, { attempt, delayMs, leftMs: deadlineAt - o.clock.now(), error }),
      },
    );
  } catch (error) {
    if (o.signal?.aborted === true) throw error;
    if (!cut.passed() && !isTransientFailure(error)) throw error;
    const last = isTransientFailure(error) ? error : (abortedAfter(error) ?? lastFailure);
    throw new StartupDeadlineError({
      step: what,
      deadlineMs: o.deadlineMs,
      elapsedMs: o.clock.now() - started,
      attempts,
      lastFailure: last,
    });
  } finally {
    cut.dispose();
  }
}

/** `untilDeadline` with its options bound, for code that runs several steps the same way. */
export function bindUntilDeadline(o: UntilDeadlineOptions): VenueWait {
  return (what, step) => untilDeadline(what, step, o);
}

/** A `VenueWait` that runs each step once (no deadline): the default where none is configured. */
export function runOnce(signal?: AbortSignal): VenueWait {
  return (_what, step) => step(signal ?? new AbortController().signal);
}

function logWait(
  o: UntilDeadlineOptions,
  what: string,
  w: { attempt: number; delayMs: number; leftMs: number; error: unknown },
): void {
  const reason = w.error instanceof Error ? w.error.message : String(w.error);
  o.log.warn(
    { step: what, attempt: w.attempt, delayMs: w.delayMs, leftMs: w.leftMs, reason },
    `waiting for the venue: ${what} (attempt ${w.attempt}, retry in ${(w.delayMs / 1000).toFixed(1)} s, ${Math.max(0, Math.round(w.leftMs / 1000))} s left)`,
  );
}

/** A read cut by the deadline during its own retries carries the failure it was waiting out. */
function abortedAfter(error: unknown): unknown {
  return error instanceof VenueTransportError &&
    error.kind === 'Aborted' &&
    error.cause instanceof Error &&
    !(error.cause instanceof DOMException)
    ? error.cause
    : undefined;
}

/** A signal that aborts at the deadline or with the caller's signal; `dispose` ends its timer. */
function deadlineSignal(o: UntilDeadlineOptions): { signal: AbortSignal; passed: () => boolean; dispose: () => void } {
  const controller = new AbortController();
  const stopTimer = new AbortController();
  let passed = false;
  o.clock.sleep(o.deadlineMs, stopTimer.signal).then(
    () => {
      passed = true;
      controller.abort(new DOMException(`the deadline of ${o.deadlineMs} ms passed`, 'TimeoutError'));
    },
    () => undefined,
  );
  const onCallerAbort = (): void => controller.abort(o.signal?.reason);
  if (o.signal?.aborted === true) onCallerAbort();
  else o.signal?.addEventListener('abort', onCallerAbort, { once: true });
  return {
    signal: controller.signal,
    passed: () => passed,
    dispose: () => {
      stopTimer.abort();
      o.signal?.removeEventListener('abort', onCallerAbort);
    },
  };
}

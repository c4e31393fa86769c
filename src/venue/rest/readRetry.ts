import type { Clock } from '../../core/clock.js';
import { withRetry } from '../../core/withRetry.js';
import { VenueError } from '../venueError.js';
import { VenueTransportError } from '../venueTransportError.js';
import { faultVerdict, requestFailureOf } from './requestFaults.js';
import { VenueSchemaError } from './venueSchemaError.js';

/** One wait before a read is sent again, for the runtime's log. */
export interface RestRetryEvent {
  /** e.g. "GET /v1/markets". */
  readonly endpoint: string;
  /** The attempt that failed (1-based). */
  readonly attempt: number;
  readonly delayMs: number;
  /** What went wrong, as the failure's message says it (no secrets: venue errors are redacted). */
  readonly reason: string;
}

export interface ReadRetryOptions {
  readonly endpoint: string;
  /** No attempt starts later than this after the call began; 0: a single attempt. */
  readonly deadlineMs: number;
  /** Delay before attempt n + 1 when the venue named none (exponential, full jitter). */
  readonly backoff: (attempt: number) => number;
  readonly clock: Clock;
  readonly signal?: AbortSignal;
  readonly onRetry?: (event: RestRetryEvent) => void;
}

/**
 * The wait before the next attempt when `leftMs` of a `deadlineMs` remain: the backoff, or, when
 * that would run past the deadline, a wait that makes one last attempt start a margin before it
 * (a quarter of the deadline, at most 1 s, left for its answer), so the whole deadline is used;
 * once that margin is all that is left, a wait past the deadline (the caller gives up). The
 * venue's `Retry-After` is never cut.
 */
export function delayWithin(
  error: unknown,
  attempt: number,
  backoff: (attempt: number) => number,
  leftMs: number,
  deadlineMs: number,
): number {
  const wanted = retryDelayFor(error, attempt, backoff);
  if ((error instanceof VenueError && error.retryAfterMs !== undefined) || wanted < leftMs) return wanted;
  const lastStart = leftMs - Math.min(1_000, deadlineMs / 4);
  return lastStart > 0 ? lastStart : wanted;
}

/** The venue's `Retry-After` when it gave one, otherwise the backoff. */
export function retryDelayFor(error: unknown, attempt: number, backoff: (attempt: number) => number): number {
  return error instanceof VenueError && error.retryAfterMs !== undefined ? error.retryAfterMs : backoff(attempt);
}

/**
 * Sends a read again while the venue table (`requestFaults.ts`) says a retry may succeed and the
 * next attempt can still start before the deadline. The last failure is what the caller sees; an
 * abort by the caller, even during a wait, comes out as `VenueTransportError` kind Aborted.
 */
export async function retryRead<T>(attempt: (n: number) => Promise<T>, o: ReadRetryOptions): Promise<T> {
  const deadlineAt = o.clock.now() + o.deadlineMs;
  let planned = 0;
  let lastFailure: unknown;
  try {
    return await withRetry(attempt, {
      attempts: Number.POSITIVE_INFINITY,
      shouldRetry: (error, n) => {
        // The caller's abort is not what went wrong: keep the failure it cut short.
        if (!isAbort(error)) lastFailure = error;
        if (faultVerdict('read', requestFailureOf(error)) !== 'retry') return false;
        planned = delayWithin(error, n, o.backoff, deadlineAt - o.clock.now(), o.deadlineMs);
        return o.clock.now() + planned < deadlineAt;
      },
      delayMs: () => planned,
      clock: o.clock,
      ...(o.signal === undefined ? {} : { signal: o.signal }),
      onRetry: ({ attempt: n, error, delayMs }) =>
        o.onRetry?.({ endpoint: o.endpoint, attempt: n, delayMs, reason: reasonOf(error) }),
    });
  } catch (error) {
    // Aborted during an attempt after earlier ones failed: say what the retries were waiting out.
    if (isAbort(error) && lastFailure !== undefined)
      throw new VenueTransportError({
        kind: 'Aborted',
        endpoint: o.endpoint,
        cause: lastFailure,
        requestSent: error.requestSent,
      });
    if (isVenueFailure(error) || o.signal?.aborted !== true) throw error;
    // Aborted between attempts (or before the first): nothing was sent this time.
    throw new VenueTransportError({
      kind: 'Aborted',
      endpoint: o.endpoint,
      cause: lastFailure ?? o.signal.reason,
      requestSent: false,
    });
  }
}

function isAbort(error: unknown): error is VenueTransportError {
  return error instanceof VenueTransportError && error.kind === 'Aborted';
}

function isVenueFailure(error: unknown): boolean {
  return error instanceof VenueError || error instanceof VenueTransportError || error instanceof VenueSchemaError;
}

function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

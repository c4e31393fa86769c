import type { RestRetryEvent } from '../../../venue/rest/restTransport.js';

/**
 * The REST client's `onRetry` hook as one warning per wait, so a flaky venue shows in the log as
 * what it is (which read, which attempt, how long, why) instead of as silence.
 */
export function logRestRetry(log: { warn(object: object, message: string): void }): (event: RestRetryEvent) => void {
  return (event) =>
    log.warn(
      { endpoint: event.endpoint, attempt: event.attempt, delayMs: event.delayMs, reason: event.reason },
      `waiting for the venue: ${event.endpoint} failed (attempt ${event.attempt}, retry in ${(event.delayMs / 1000).toFixed(1)} s)`,
    );
}

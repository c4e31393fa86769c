import type { Clock } from '../../core/clock.js';

/**
 * Ends a connection that has been silent too long: the oracle channel broadcasts every block, so
 * no oracle frame for `limitMs()` means the connection is dead even if the socket looks open.
 * Returns when the session ends or the limit becomes 0 (watching switched off).
 */
export async function watchStaleness(deps: {
  readonly session: { readonly open: boolean; readonly ended: Promise<string>; end(reason: string): void };
  readonly clock: Clock;
  readonly limitMs: () => number;
  readonly lastHeardAt: () => number;
}): Promise<void> {
  const { session, clock } = deps;
  const stop = new AbortController();
  const abort = (): void => stop.abort();
  session.ended.then(abort, abort);
  try {
    while (session.open && deps.limitMs() > 0) {
      const limit = deps.limitMs();
      const silentFor = clock.now() - deps.lastHeardAt();
      if (silentFor >= limit) {
        session.end(`stale: no oracle message for ${silentFor} ms (limit ${limit} ms)`);
        return;
      }
      await clock.sleep(limit - silentFor, stop.signal);
    }
  } catch {
    // The session ended while waiting.
  }
}

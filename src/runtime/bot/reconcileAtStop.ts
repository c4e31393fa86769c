import type { Clock } from '../../core/clock.js';
import type { Logger } from '../operations/logging/createLogger.js';

const NEXT_START = 'the next start reads the fills it may have missed from the venue';

/**
 * Longest the stop waits for it, whatever `shutdown.timeout_ms` allows: on a venue that cannot
 * answer by then the next start reads back anyway, and a service manager's stop timeout (30 s in
 * docs/perpbot.service) must still cover the drain, the cancels and this.
 */
export const STOP_RECONCILE_MAX_MS = 5_000;

/**
 * The run's last reconciliation (`JournalForBot.reconcileAtStop`), bounded by the shutdown's
 * timeout and `STOP_RECONCILE_MAX_MS`. A stalled stream loses fill frames without a reconnect;
 * at a stop no later reconnect reads them back, so the journal would close without them. A
 * failure or a timeout costs nothing but a warning: the next start's reconciliation reads the
 * venue's fills from before the last one the journal holds.
 */
export async function reconcileAtStop(
  reconcile: () => Promise<unknown>,
  o: { readonly timeoutMs: number; readonly clock: Clock; readonly logger: Pick<Logger, 'warn'> },
): Promise<void> {
  const settled = new AbortController();
  const limitMs = Math.min(o.timeoutMs, STOP_RECONCILE_MAX_MS);
  const timedOut = o.clock.sleep(limitMs, settled.signal).then(
    () => true,
    () => false,
  );
  try {
    const late = await Promise.race([reconcile().then(() => false), timedOut]);
    if (late)
      o.logger.warn({ limitMs }, `the reconciliation at the stop took longer than ${limitMs} ms: ${NEXT_START}`);
  } catch (err) {
    o.logger.warn({ err }, `the reconciliation at the stop failed: ${NEXT_START}`);
  } finally {
    settled.abort();
  }
}

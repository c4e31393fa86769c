import { filter, firstValueFrom, tap } from 'rxjs';
import type { Clock } from '../../core/clock.js';
import { PerpbotError } from '../../core/perpbotError.js';
import type { VenueWsClient } from '../../venue/ws/venueWsClient.js';
import type { Logger } from '../operations/logging/createLogger.js';

/**
 * Start-up waits (bounded by the start-up deadline) until the private feeds are authenticated, so
 * strategies start on a connection that sees their orders and fills; each wait is logged.
 */
export async function waitForPrivateFeeds(
  ws: VenueWsClient,
  deadlineMs: number,
  clock: Clock,
  logger: Logger,
  signal: AbortSignal,
): Promise<void> {
  const started = clock.now();
  let last: { status: string; reason?: string } = { status: 'connecting' };
  const authenticated = firstValueFrom(
    ws.connectionState$.pipe(
      tap((state) => (last = state)),
      filter((state) => state.status === 'authenticated'),
    ),
  );
  for (;;) {
    const left = deadlineMs - (clock.now() - started);
    if (left <= 0) {
      throw new PerpbotError(
        `the venue WebSocket did not authenticate within the start-up deadline of ${deadlineMs} ms (last state: ${last.status}${last.reason === undefined ? '' : `, ${last.reason}`})`,
        {
          code: 'STARTUP_DEADLINE',
          details: { deadlineMs, status: last.status },
          hints: [
            'check the WebSocket URL and that the signer is registered (perpbot status)',
            'raise venue.startup_deadline_ms to wait longer',
          ],
        },
      );
    }
    const tick = clock.sleep(Math.min(5_000, left), signal).then(() => false);
    if (await Promise.race([authenticated.then(() => true), tick])) return;
    logger.warn(
      { status: last.status, reason: last.reason, leftMs: deadlineMs - (clock.now() - started) },
      'waiting for the venue: WebSocket authentication of the private feeds',
    );
  }
}

import { BusyPoll } from '../../core/busyPoll.js';
import type { VenueWsClient } from '../../venue/ws/venueWsClient.js';
import type { Config } from '../config/configSchema.js';
import type { Logger } from '../operations/logging/createLogger.js';

/**
 * The bot's busy polling (`busy_poll:` in the config), driven by the venue's frames: spinning
 * while they arrive, parked after `window_ms` without one. Undefined when it is off. The caller
 * stops it before the shutdown's slower steps.
 */
export function startBotBusyPoll(config: Config, ws: VenueWsClient, logger: Logger): BusyPoll | undefined {
  const { enabled, window_ms: windowMs } = config.busy_poll;
  if (!enabled) return undefined;
  const poll = new BusyPoll({ windowMs, activity: () => ws.framesReceived });
  poll.start();
  logger.info(
    { windowMs },
    'busy polling on: the event loop spins (one core at 100 %) while venue frames arrive, parked after the window',
  );
  return poll;
}

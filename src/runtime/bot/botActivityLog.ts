import type { Subscription } from 'rxjs';
import type { Engine } from '../../engine/engine.js';
import type { VenueWsClient } from '../../venue/ws/venueWsClient.js';
import type { Logger } from '../operations/logging/createLogger.js';
import { untilFailed } from './untilFailed.js';

/*
 * What the bot logs of the venue and the engine, one line per event. The chaos audit reads these
 * lines back (connection and trading state), so their messages and fields are an interface.
 */

export function logConnection(ws: VenueWsClient, logger: Logger): Subscription {
  return ws.connectionState$.subscribe((state) =>
    logger.info({ status: state.status, reason: state.reason }, 'venue connection'),
  );
}

export function logTradingState(engine: Engine, logger: Logger): Subscription {
  return engine.tradingState$.subscribe((state) =>
    logger.info({ mode: state.mode, reasons: state.reasons }, 'trading state'),
  );
}

export function logFills(engine: Engine, logger: Logger): Subscription {
  return engine.fills$.subscribe((f) => logger.info({ fill: f }, 'fill'));
}

export function logPositions(ws: VenueWsClient, logger: Logger): Subscription {
  return untilFailed(ws.channel('positions')).subscribe((m) => {
    for (const p of m.positions)
      logger.info(
        { position: { market_id: p.market_id, size: p.size, side: p.side, avg_entry_price: p.avg_entry_price } },
        'position',
      );
  });
}

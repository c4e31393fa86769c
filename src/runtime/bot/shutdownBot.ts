import type { Subscription } from 'rxjs';
import type { Clock } from '../../core/clock.js';
import type { Engine } from '../../engine/engine.js';
import { cancelAll } from '../../engine/intents/intentBuilders.js';
import type { RestClient } from '../../venue/rest/restClient.js';
import type { VenueWsClient } from '../../venue/ws/venueWsClient.js';
import type { Config } from '../config/configSchema.js';
import type { Logger } from '../operations/logging/createLogger.js';
import type { BotStrategies } from './botStrategies.js';
import { closePositionsAtExit } from './closePositionsAtExit.js';
import { reconcileAtStop } from './reconcileAtStop.js';
import { reportLeftOnVenue } from './reportLeftOnVenue.js';

/** What a running bot is made of, as its shutdown takes it apart. */
export interface RunningBot {
  readonly engine: Engine;
  readonly ws: VenueWsClient;
  readonly strategies: Pick<BotStrategies, 'host' | 'execution'>;
  /** Everything that follows the venue and the engine besides them (logs, extras). */
  readonly subscriptions: Subscription;
  readonly markets: readonly number[];
  /** For the exit's report of what the venue still holds. */
  readonly venue: { readonly rest: RestClient; readonly account: string };
  /** The journal's last reconciliation (`JournalForBot.reconcileAtStop`). */
  readonly reconcileJournal: () => Promise<unknown>;
}

/**
 * Shuts down in order: /ready says stopping, the strategies stop, their budgets refuse what still
 * waits, the engine drains, open orders are cancelled or kept per `shutdown.open_orders`,
 * positions closed or kept per `shutdown.positions`, the journal reconciled with the venue once
 * more, what the venue still holds is said, the engine stops, the connection closes.
 */
export async function shutdownBot(
  bot: RunningBot,
  o: { readonly config: Config; readonly clock: Clock; readonly logger: Logger; readonly stopping: () => void },
): Promise<void> {
  const { engine, strategies } = bot;
  const { timeout_ms: timeoutMs, open_orders: openOrders, positions } = o.config.shutdown;
  o.stopping();
  await strategies.host.stop();
  strategies.execution.close();
  // A placement still in flight would land after a cancel-all: let every intent settle first.
  await Promise.race([engine.drain(), o.clock.sleep(timeoutMs)]);
  if (openOrders === 'cancel') await cancelEverything(engine, bot.markets, timeoutMs, o.clock, o.logger);
  if (positions === 'close') await closePositionsAtExit(engine, bot.markets, { timeoutMs, ...o });
  await reconcileAtStop(bot.reconcileJournal, { timeoutMs, clock: o.clock, logger: o.logger });
  await reportLeftOnVenue(bot.venue.rest, bot.venue.account, bot.markets, o.logger);
  await engine.stop();
  bot.subscriptions.unsubscribe();
  await bot.ws.close();
}

async function cancelEverything(
  engine: Engine,
  markets: readonly number[],
  timeoutMs: number,
  clock: Clock,
  logger: Logger,
): Promise<void> {
  const withOrders = markets.filter(
    (m) =>
      engine.tracker.openOrders({ marketId: m }).length > 0 ||
      engine.tracker.foreignOrders().some((f) => f.marketId === m),
  );
  if (withOrders.length === 0) return;
  const all = Promise.all(
    withOrders.map((marketId) =>
      engine.execute(cancelAll({ intentId: `shutdown-${marketId}-${clock.now()}`, strategy: 'shutdown', marketId })),
    ),
  );
  const timeout = clock.sleep(timeoutMs).then(() => 'timeout' as const);
  const result = await Promise.race([all, timeout]);
  if (result === 'timeout')
    logger.warn({ markets: withOrders, timeoutMs }, 'open orders not confirmed cancelled before the shutdown timeout');
  else
    logger.info(
      { outcomes: result.map((o) => ({ marketId: o.marketId, type: o.type })) },
      'open orders cancelled on shutdown',
    );
}

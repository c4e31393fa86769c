import type { SchedulerLike, Subscription } from 'rxjs';
import type { Clock } from '../../core/clock.js';
import type { Engine } from '../../engine/engine.js';
import type { Intent } from '../../engine/intents/intents.js';
import type { StrategyStorage } from '../../strategy/strategyContext.js';
import { StrategyHost, type HostedStrategy } from '../../strategy/strategyHost.js';
import { OrderBookFeed, type OrderbookSource } from '../../venue/orderbook/orderBookFeed.js';
import type { VenueWsClient } from '../../venue/ws/venueWsClient.js';
import type { Config } from '../config/configSchema.js';
import { effectiveRisk } from '../../engine/guards/riskLimits.js';
import type { FreshnessBudgets } from '../freshness/freshnessBudgets.js';
import type { Logger } from '../operations/logging/createLogger.js';
import { logIntentOutcome } from '../operations/logging/logIntentOutcome.js';
import { HaltedRefusalLog } from '../operations/logging/haltedRefusalLog.js';
import { budgetedExecution, type BudgetedExecution } from '../../strategy/wiring/budgetedExecution.js';
import { stateSnapshot } from '../../strategy/wiring/stateSnapshot.js';
import { strategyStreams } from '../../strategy/wiring/strategyStreams.js';
import type { VenueExtras } from '../../strategy/wiring/venueExtras.js';

export interface BotStrategiesOptions {
  readonly config: Config;
  readonly hosted: readonly HostedStrategy[];
  readonly freshness: FreshnessBudgets;
  /** Started and following the venue. */
  readonly engine: Engine;
  /** The venue's WebSocket client (or a flight recording's channels, in a replay). */
  readonly ws: Pick<VenueWsClient, 'channel' | 'connectionState$'> & OrderbookSource;
  readonly venueExtras: VenueExtras;
  readonly storage: (strategy: string) => StrategyStorage;
  readonly markets: readonly number[];
  readonly clock: Clock;
  readonly logger: Logger;
  /** The budgets' refusals are logged as the engine's. */
  readonly engineLog: Logger;
  readonly runId: string;
  /**
   * Every intent a strategy submits passes through here on its way to the engine: `submit` hands
   * it on (the flight recorder records it first; a flight replay hands it on at the recorded time).
   */
  readonly routeIntent?: (intent: Intent, submit: (intent: Intent) => void) => void;
  /** The strategies' timing (`ctx.clock.scheduler`): the wall clock's unless given (a replay's virtual time). */
  readonly scheduler?: SchedulerLike;
}

export interface BotStrategies {
  /** What strategies submit through: each one's budget, then the engine. */
  readonly execution: BudgetedExecution;
  readonly books: OrderBookFeed;
  readonly host: StrategyHost;
  /** Aborts once every strategy is done, when `shutdown.when_all_done` is `stop`. */
  readonly allDone: AbortSignal;
  /** The outcome log; ends with the bot. */
  readonly outcomeLog: Subscription;
}

/**
 * The configured strategies, hosted (not yet started) on the venue's streams and the engine's
 * state, each submitting through its own budget: run() starts once its markets have a mark (the
 * start-up read's at first) and a book, and the engine trades.
 */
export function hostStrategies(o: BotStrategiesOptions): BotStrategies {
  const { config, engine, ws, clock, logger } = o;
  const budgeted = budgetedExecution({
    engine,
    budgets: new Map(config.strategies.map((s) => [s.name, effectiveRisk(config.risk, s)])),
    clock,
    conditions: (strategy) => o.freshness.conditions(strategy),
  });
  const { routeIntent } = o;
  const submit = (intent: Intent): void => budgeted.submit(intent);
  const execution: BudgetedExecution =
    routeIntent === undefined ? budgeted : { ...budgeted, submit: (intent) => routeIntent(intent, submit) };
  // The engine's outcomes and the refusals of the budgets, one line each; but a halt's refusals.
  const halted = new HaltedRefusalLog(logger);
  const outcomeLog = execution.outcomes.subscribe((outcome) => {
    if (!halted.take(outcome)) logIntentOutcome(logger, outcome);
  });
  for (const s of config.strategies)
    outcomeLog.add(
      engine.tradingStateOf(s.name).subscribe((state) => {
        if (state.mode !== 'halted') halted.resumed(s.name);
      }),
    );
  const books = new OrderBookFeed(ws, { logger: logger.child({ component: 'orderbook' }) });
  const allDone = new AbortController();
  const host = new StrategyHost({
    strategies: o.hosted,
    streams: strategyStreams(ws, books, engine, { venue: o.venueExtras, clock }),
    state: stateSnapshot(engine, o.venueExtras),
    ledger: engine.ledger,
    execution,
    logger,
    clock,
    runId: o.runId,
    storage: o.storage,
    waitUntilReady: true,
    marksFromState: true,
    orderEvents: engine.orderEvents$,
    ...(o.scheduler === undefined ? {} : { scheduler: o.scheduler }),
    stopTimeoutMs: config.shutdown.timeout_ms,
    cancelOrdersOnStop: config.shutdown.open_orders === 'cancel',
    onAllDone: () => {
      if (config.shutdown.when_all_done !== 'stop') return;
      logger.info({}, 'every strategy is done: stopping (shutdown.when_all_done: stop)');
      allDone.abort();
    },
  });
  return { execution, books, host, allDone: allDone.signal, outcomeLog };
}

import { resolve } from 'node:path';
import { catchError, EMPTY, filter, pairwise, Subscription, type Observable } from 'rxjs';
import { systemClock, type Clock } from '../core/clock.js';
import { PerpbotError } from '../core/perpbotError.js';
import { dryRunSender, venueSender } from '../engine/actionSender.js';
import { Engine } from '../engine/engine.js';
import type { FeedLostError } from '../engine/feedLostError.js';
import { cancelAll } from '../engine/intentBuilders.js';
import { fastPrivateKeySigner } from '../protocol/nativeSigner.js';
import { SELECTOR_PROFILES } from '../protocol/selectors.js';
import { StrategyHost, type HostLogger } from '../strategy/strategyHost.js';
import { OrderBookFeed } from '../venue/orderbook/orderBookFeed.js';
import { createRestClient, type RestClient } from '../venue/rest/restClient.js';
import { JwtSession } from '../engine/jwtSession.js';
import type { SigningContext } from '../protocol/signingContext.js';
import { VenueWsClient } from '../venue/ws/venueWsClient.js';
import { wsAuthenticatorFromRest } from '../venue/ws/wsAuthenticatorFromRest.js';
import type { Config } from './config/configSchema.js';
import { effectiveRisk } from './config/effectiveRisk.js';
import { openJournalForBot } from './journal/openJournalForBot.js';
import type { Logger } from './logging/createLogger.js';
import { logIntentOutcome } from './logging/logIntentOutcome.js';
import { engineConfigFromConfig } from './wiring/engineConfigFromConfig.js';
import { loadStrategies } from './wiring/loadStrategies.js';
import { stateSnapshot } from './wiring/stateSnapshot.js';
import { budgetedExecution } from './wiring/budgetedExecution.js';
import { strategyStreams } from './wiring/strategyStreams.js';

export interface BotKeys {
  /** The account key is needed only in JWT mode (the login is signed by the main wallet). */
  readonly account: { readonly address: `0x${string}`; readonly privateKey?: `0x${string}` };
  readonly signer: { readonly address: `0x${string}`; readonly privateKey: `0x${string}` };
}

export interface RunBotOptions {
  readonly config: Config;
  readonly keys: BotKeys;
  readonly restUrl: string;
  readonly wsUrl: string;
  readonly logger: Logger;
  /** Aborting it stops the bot gracefully. */
  readonly signal: AbortSignal;
  /** Where strategy module paths are resolved from (the repository or the user's directory). */
  readonly root?: string;
  readonly clock?: Clock;
  /** Called once the strategies are running (tests and the CLI's readiness line). */
  readonly onReady?: (bot: { engine: Engine; host: StrategyHost }) => void;
}

/**
 * Wires a venue (REST + WebSocket), the engine and the configured strategies, runs until the
 * signal aborts, then shuts down in order: strategies stop, open orders are cancelled or kept per
 * `shutdown.open_orders`, the engine drains, the connection closes.
 */
export async function runBot(options: RunBotOptions): Promise<void> {
  const { config, logger } = options;
  const clock = options.clock ?? systemClock;
  const rest = createRestClient({ baseUrl: options.restUrl, timeoutMs: config.venue.request_timeout_ms });
  const signer = fastPrivateKeySigner(options.keys.signer.privateKey);
  const engineLog = logger.child({ component: 'engine' });
  let signingContext: SigningContext | undefined;
  const jwt: JwtSession | undefined = config.auth.mode === 'jwt' ? jwtSessionFor(options, rest, clock, () => signingContext) : undefined;
  const markets = [...new Set(config.strategies.flatMap((s) => s.markets))];
  const runId = clock.now().toString(36);
  const journaled = await openJournalForBot({
    path: resolve(options.root ?? process.cwd(), config.journal.path),
    account: options.keys.account.address,
    rest,
    clock,
    log: engineLog,
    markets,
    runId,
    unknownOrders: config.reconcile.unknown_orders,
    adopter: (marketId) => config.strategies.find((s) => s.markets.includes(marketId))?.name,
    maxInFlightWaitMs: (config.auth.permit_deadline_seconds + 5) * 1000,
  });
  // Closed on every path, after the engine stopped writing to it (or failed to start).
  try {
    const engine: Engine = new Engine({
      account: options.keys.account.address,
      signer,
      rest,
      sender: config.engine.dry_run ? dryRunSender(engineLog) : venueSender(rest, jwt),
      authMode: config.auth.mode,
      config: engineConfigFromConfig(config),
      selectors: SELECTOR_PROFILES[config.venue.selectors],
      clock,
      log: engineLog,
      markets,
      permitDeadlineSeconds: config.auth.permit_deadline_seconds,
      journal: journaled.engineJournal,
      ...(journaled.restoredNonceHighWater === undefined ? {} : { restoredNonceHighWater: journaled.restoredNonceHighWater }),
    });
    const hosted = await loadStrategies(config, options.root ?? process.cwd());
    journaled.beforeStart(engine);
    await engine.start();
    for (const id of markets) {
      if (engine.market(id) === undefined) {
        throw new PerpbotError(`market ${id} is not listed by the venue`, { code: 'CONFIG_MARKET', hints: ['check the strategies\' markets against GET /v1/markets'] });
      }
    }

    signingContext = engine.signingContext;
    if (signingContext === undefined) throw new PerpbotError('the engine started without a signing context', { code: 'ENGINE_NOT_STARTED' });
    const ws = new VenueWsClient({
      url: options.wsUrl,
      knownMarketIds: async () => engine.markets().map((m) => Number(m.market_id)),
      authenticator: wsAuthenticatorFromRest({ rest, context: signingContext, account: options.keys.account.address, signer }),
      logger: logger.child({ component: 'ws' }),
      ...(config.venue.profile === 'sim' ? { blockMs: config.sim.block_ms } : {}),
    });
    const subscriptions = new Subscription();
    subscriptions.add(
      ws.connectionState$.subscribe((state) => logger.info({ status: state.status, reason: state.reason }, 'venue connection')),
    );
    // A feed the engine can no longer follow stops the bot: the engine has tripped its kill switch;
    // the bot shuts down as on a signal and runBot then rejects with the FeedLostError.
    let feedLost: FeedLostError | undefined;
    const stopOnFeedLoss = new AbortController();
    engine.attach(
      {
        orders: ws.channel('orders'),
        positions: ws.channel('positions'),
        fills: ws.channel('fills'),
        account: ws.channel('account'),
        oracle: ws.channel('oracle', { marketIds: markets }),
        reconnected: ws.connectionState$.pipe(
          pairwise(),
          filter(([before, now]) => now.status === 'authenticated' && now.connections > 1 && before.status !== 'authenticated'),
        ),
      },
      {
        onFeedLost: (error) => {
          feedLost = error;
          logger.error({ err: error, channel: error.channel }, 'a venue feed failed: stopping the bot');
          stopOnFeedLoss.abort(error);
        },
      },
    );
    await journaled.afterStart(engine, { connection$: ws.connectionState$, positionsChanged$: untilFailed(ws.channel('positions')) });
    subscriptions.add(engine.fills$.subscribe((f) => logger.info({ fill: f }, 'fill')));
    subscriptions.add(
      untilFailed(ws.channel('positions')).subscribe((m) => {
        for (const p of m.positions) logger.info({ position: { market_id: p.market_id, size: p.size, side: p.side, avg_entry_price: p.avg_entry_price } }, 'position');
      }),
    );

    const budgeted = budgetedExecution({
      engine,
      budgets: new Map(config.strategies.map((s) => [s.name, effectiveRisk(config.risk, s)])),
      clock,
      log: engineLog,
      revalue: untilFailed(ws.channel('oracle', { marketIds: markets })),
    });
    const execution = journaled.gate(budgeted);
    // The engine's outcomes and the refusals of the budgets and the journal gate, one line each.
    subscriptions.add(execution.outcomes.subscribe((o) => logIntentOutcome(logger, o)));
    const host = new StrategyHost({
      strategies: hosted,
      streams: strategyStreams(ws, new OrderBookFeed(ws, { logger: logger.child({ component: 'orderbook' }) }), engine),
      state: stateSnapshot(engine),
      execution,
      logger: logger as unknown as HostLogger,
      clock,
      runId,
      storage: journaled.storage,
    });
    try {
      await host.start();
      logger.info({ account: options.keys.account.address, signer: signer.address, strategies: hosted.map((h) => h.name), dryRun: config.engine.dry_run }, 'bot running');
      options.onReady?.({ engine, host });
      await waitForAbort(AbortSignal.any([options.signal, stopOnFeedLoss.signal]));
      logger.info({}, 'stopping');
    } finally {
      await host.stop();
      budgeted.close();
      // A placement still in flight would land after a cancel-all: let every intent settle first.
      await Promise.race([engine.drain(), clock.sleep(config.shutdown.timeout_ms)]);
      if (config.shutdown.open_orders === 'cancel') await cancelEverything(engine, markets, config.shutdown.timeout_ms, clock, logger);
      await engine.stop();
      subscriptions.unsubscribe();
      await ws.close();
    }
    if (feedLost !== undefined) throw feedLost;
  } finally {
    journaled.close();
  }
}

async function cancelEverything(engine: Engine, markets: readonly number[], timeoutMs: number, clock: Clock, logger: Logger): Promise<void> {
  const withOrders = markets.filter((m) => engine.tracker.openOrders({ marketId: m }).length > 0 || engine.tracker.foreignOrders().some((f) => f.marketId === m));
  if (withOrders.length === 0) return;
  const all = Promise.all(withOrders.map((marketId) => engine.execute(cancelAll({ intentId: `shutdown-${marketId}-${clock.now()}`, strategy: 'shutdown', marketId }))));
  const timeout = clock.sleep(timeoutMs).then(() => 'timeout' as const);
  const result = await Promise.race([all, timeout]);
  if (result === 'timeout') logger.warn({ markets: withOrders, timeoutMs }, 'open orders not confirmed cancelled before the shutdown timeout');
  else logger.info({ outcomes: result.map((o) => ({ marketId: o.marketId, type: o.type })) }, 'open orders cancelled on shutdown');
}

/** JWT mode: the session logs in with the account key and refreshes before the token expires. */
function jwtSessionFor(options: RunBotOptions, rest: RestClient, clock: Clock, context: () => SigningContext | undefined): JwtSession {
  const accountKey = options.keys.account.privateKey;
  if (accountKey === undefined) {
    throw new PerpbotError('auth mode jwt needs the account key: the JWT login is signed by the main wallet', {
      code: 'KEY_MISSING',
      hints: ['set PERPBOT_ACCOUNT_KEY or keys.account_key_file, or use auth.mode: permit'],
    });
  }
  return new JwtSession({
    rest,
    account: options.keys.account.address,
    accountSigner: fastPrivateKeySigner(accountKey),
    clock,
    context: () => {
      const c = context();
      if (c === undefined) throw new PerpbotError('JWT login before the engine read the venue domain', { code: 'ENGINE_NOT_STARTED' });
      return c;
    },
  });
}

/**
 * A feed for listeners other than the engine: when it fails it just ends for them, since the
 * engine reports the failure (attach's onFeedLost) and RxJS would otherwise rethrow it as unhandled.
 */
function untilFailed<T>(feed: Observable<T>): Observable<T> {
  return feed.pipe(catchError(() => EMPTY));
}

function waitForAbort(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

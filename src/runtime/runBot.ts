import { resolve } from 'node:path';
import { catchError, EMPTY, filter, firstValueFrom, Subscription, tap, type Observable } from 'rxjs';
import { systemClock, type Clock } from '../core/clock.js';
import { PerpbotError } from '../core/perpbotError.js';
import { dryRunSender, venueSender } from '../engine/sending/actionSender.js';
import { Engine } from '../engine/engine.js';
import { FeedLostError } from '../engine/feedLostError.js';
import type { TradingStoppedError } from '../engine/tradingStoppedError.js';
import { cancelAll } from '../engine/intents/intentBuilders.js';
import { fastPrivateKeySigner } from '../protocol/nativeSigner.js';
import { SELECTOR_PROFILES } from '../protocol/selectors.js';
import { StrategyHost } from '../strategy/strategyHost.js';
import { OrderBookFeed } from '../venue/orderbook/orderBookFeed.js';
import { createRestClient, type RestClient } from '../venue/rest/restClient.js';
import { JwtSession } from '../engine/sending/jwtSession.js';
import type { SigningContext } from '../protocol/signingContext.js';
import { VenueWsClient } from '../venue/ws/venueWsClient.js';
import { wsAuthenticatorFromRest } from '../venue/ws/wsAuthenticatorFromRest.js';
import type { Config } from './config/configSchema.js';
import { effectiveRisk } from './config/effectiveRisk.js';
import { openJournalForBot } from './journal/openJournalForBot.js';
import { logRestRetry } from './startup/logRestRetry.js';
import { bindUntilDeadline } from './startup/untilDeadline.js';
import type { Logger } from './logging/createLogger.js';
import { logIntentOutcome } from './logging/logIntentOutcome.js';
import { engineConfigFromConfig } from './wiring/engineConfigFromConfig.js';
import { loadStrategies } from './wiring/loadStrategies.js';
import { stateSnapshot } from './wiring/stateSnapshot.js';
import { budgetedExecution } from './wiring/budgetedExecution.js';
import { BotService } from './control/botService.js';
import { freshnessBudgetsFor } from './freshness/freshnessBudgetsFor.js';
import { strategyStreams } from './wiring/strategyStreams.js';
import { VenueExtras } from './wiring/venueExtras.js';

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
  /** Where the control token (`control.token_env`) and the alert webhook (`alerts.webhook_url_env`) are read. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** A terminal for the periodic status line (the CLI passes stdout when it is a TTY). */
  readonly statusLine?: { write(text: string): void };
  /** Called with the control server's URL once it listens (`control:` configured). */
  readonly onControlServer?: (url: string) => void;
}

/**
 * Wires a venue (REST + WebSocket), the engine and the configured strategies, runs until the
 * signal aborts, then shuts down in order: strategies stop, open orders are cancelled or kept per
 * `shutdown.open_orders`, the engine drains, the connection closes.
 */
export async function runBot(options: RunBotOptions): Promise<void> {
  const { config, logger } = options;
  const clock = options.clock ?? systemClock;
  const runId = clock.now().toString(36);
  // First, so /health answers through a long start-up; closed last, on every path.
  const service = await BotService.start({
    config,
    logger,
    clock,
    env: options.env ?? {},
    root: options.root ?? process.cwd(),
    account: options.keys.account.address,
    runId,
    ...(options.statusLine === undefined ? {} : { statusLine: options.statusLine }),
    ...(options.onControlServer === undefined ? {} : { onControlServer: options.onControlServer }),
  });
  try {
    await runWithService(options, clock, runId, service);
  } finally {
    await service.close();
  }
}

async function runWithService(options: RunBotOptions, clock: Clock, runId: string, service: BotService): Promise<void> {
  const { config, logger } = options;
  const rest = service.instrumentRest(
    createRestClient({
      baseUrl: options.restUrl,
      timeoutMs: config.venue.request_timeout_ms,
      onRetry: service.onRestRetry(logRestRetry(logger.child({ component: 'rest' }))),
    }),
  );
  // Start-up rides out a venue's bad minutes: each step runs again while it fails transiently.
  const startup = bindUntilDeadline({
    deadlineMs: config.venue.startup_deadline_ms,
    clock,
    log: logger,
    signal: options.signal,
  });
  const signer = fastPrivateKeySigner(options.keys.signer.privateKey);
  const engineLog = logger.child({ component: 'engine' });
  let signingContext: SigningContext | undefined;
  const jwt: JwtSession | undefined =
    config.auth.mode === 'jwt' ? jwtSessionFor(options, rest, clock, () => signingContext) : undefined;
  const markets = [...new Set(config.strategies.flatMap((s) => s.markets))];
  const journaled = await startup('the first reconciliation with the venue', () =>
    openJournalForBot({
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
    }),
  );
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
      journal: service.instrumentJournal(journaled.engineJournal),
      ...(journaled.restoredNonceHighWater === undefined
        ? {}
        : { restoredNonceHighWater: journaled.restoredNonceHighWater }),
    });
    const hosted = await loadStrategies(config, options.root ?? process.cwd());
    const freshness = freshnessBudgetsFor(hosted, config, service.feeds);
    journaled.beforeStart(engine);
    service.starting('reading the venue and reconciling the engine');
    await startup('reading the domain, system config, markets and nonce state', () => engine.start());
    for (const id of markets) {
      if (engine.market(id) === undefined) {
        throw new PerpbotError(`market ${id} is not listed by the venue`, {
          code: 'CONFIG_MARKET',
          hints: ["check the strategies' markets against GET /v1/markets"],
        });
      }
    }

    signingContext = engine.signingContext;
    if (signingContext === undefined)
      throw new PerpbotError('the engine started without a signing context', { code: 'ENGINE_NOT_STARTED' });
    const ws = new VenueWsClient({
      url: options.wsUrl,
      knownMarketIds: async () => engine.markets().map((m) => Number(m.market_id)),
      authenticator: wsAuthenticatorFromRest({
        rest,
        context: signingContext,
        account: options.keys.account.address,
        signer,
      }),
      logger: logger.child({ component: 'ws' }),
      ...(config.venue.profile === 'sim' ? { blockMs: config.sim.block_ms } : {}),
    });
    const subscriptions = new Subscription();
    subscriptions.add(
      ws.connectionState$.subscribe((state) =>
        logger.info({ status: state.status, reason: state.reason }, 'venue connection'),
      ),
    );
    // A lost connection only degrades the engine (it resumes by itself). A definite condition
    // (a feed failed for good, the signer refused, an outage past degraded.max_outage_ms) stops
    // the bot: the engine has tripped its kill switch; the bot shuts down as on a signal and
    // runBot then rejects with the TradingStoppedError.
    let stoppedBy: TradingStoppedError | FeedLostError | undefined;
    const stopOnDefinite = new AbortController();
    // Before the engine attaches: a fill's venue time must be known when the engine reports the fill.
    const venueExtras = new VenueExtras();
    subscriptions.add(venueExtras.follow(ws));
    engine.attach(
      {
        orders: ws.channel('orders'),
        positions: ws.channel('positions'),
        fills: ws.channel('fills'),
        account: ws.channel('account'),
        oracle: ws.channel('oracle', { marketIds: markets }),
        connection: ws.connectionState$,
      },
      {
        onStopped: (error) => {
          // A lost feed is reported as itself: it names the channel and why it failed.
          stoppedBy = error.cause instanceof FeedLostError ? error.cause : error;
          if (error.cause instanceof FeedLostError) service.feedLost(error.cause.channel, error.cause.message);
          if (error.cause instanceof FeedLostError)
            logger.error(
              { err: error.cause, channel: error.cause.channel, cause: error.stopCause },
              'a venue feed failed: stopping the bot',
            );
          else
            logger.error(
              { err: error, cause: error.stopCause },
              'trading stopped for a definite reason: stopping the bot',
            );
          stopOnDefinite.abort(error);
        },
      },
    );
    subscriptions.add(
      engine.tradingState$.subscribe((state) =>
        logger.info({ mode: state.mode, reasons: state.reasons }, 'trading state'),
      ),
    );
    // The journal follows the engine's reconnects (engine.reconnects$), not the connection itself.
    await journaled.afterStart(engine, { positionsChanged$: untilFailed(ws.channel('positions')) });
    subscriptions.add(engine.fills$.subscribe((f) => logger.info({ fill: f }, 'fill')));
    subscriptions.add(
      untilFailed(ws.channel('positions')).subscribe((m) => {
        for (const p of m.positions)
          logger.info(
            { position: { market_id: p.market_id, size: p.size, side: p.side, avg_entry_price: p.avg_entry_price } },
            'position',
          );
      }),
    );

    const budgeted = budgetedExecution({
      engine,
      budgets: new Map(config.strategies.map((s) => [s.name, effectiveRisk(config.risk, s)])),
      clock,
      log: engineLog,
      revalue: untilFailed(ws.channel('oracle', { marketIds: markets })),
      conditions: (strategy) => freshness.conditions(strategy),
    });
    const execution = budgeted;
    // The engine's outcomes and the refusals of the budgets, one line each.
    subscriptions.add(execution.outcomes.subscribe((o) => logIntentOutcome(logger, o)));
    const books = new OrderBookFeed(ws, { logger: logger.child({ component: 'orderbook' }) });
    const allDone = new AbortController();
    const host = new StrategyHost({
      strategies: hosted,
      streams: strategyStreams(ws, books, engine, { venue: venueExtras, clock }),
      state: stateSnapshot(engine, venueExtras),
      execution,
      logger: logger,
      clock,
      runId,
      storage: journaled.storage,
      // run() starts once its markets have a mark (the start-up read's at first) and a book and the engine trades.
      waitUntilReady: true,
      marksFromState: true,
      orderUpdates: engine.orders$,
      stopTimeoutMs: config.shutdown.timeout_ms,
      onAllDone: () => {
        if (config.shutdown.when_all_done !== 'stop') return;
        logger.info({}, 'every strategy is done: stopping (shutdown.when_all_done: stop)');
        allDone.abort();
      },
    });
    service.wire({
      engine,
      ws,
      books,
      execution,
      freshness,
      strategies: hosted.map((h) => ({ name: h.name, markets: h.markets })),
      strategyStatuses: () => host.statuses(),
      markets,
      signer: signer.address,
    });
    try {
      await waitForPrivateFeeds(
        ws,
        config.venue.startup_deadline_ms,
        clock,
        logger,
        AbortSignal.any([options.signal, stopOnDefinite.signal]),
      );
      await host.start();
      logger.info(
        {
          account: options.keys.account.address,
          signer: signer.address,
          strategies: hosted.map((h) => h.name),
          dryRun: config.engine.dry_run,
        },
        'bot running',
      );
      options.onReady?.({ engine, host });
      await waitForAbort(AbortSignal.any([options.signal, stopOnDefinite.signal, allDone.signal]));
      logger.info({}, 'stopping');
    } finally {
      service.stopping();
      await host.stop();
      budgeted.close();
      // A placement still in flight would land after a cancel-all: let every intent settle first.
      await Promise.race([engine.drain(), clock.sleep(config.shutdown.timeout_ms)]);
      if (config.shutdown.open_orders === 'cancel')
        await cancelEverything(engine, markets, config.shutdown.timeout_ms, clock, logger);
      await engine.stop();
      subscriptions.unsubscribe();
      await ws.close();
    }
    if (stoppedBy !== undefined) throw stoppedBy;
  } finally {
    journaled.close();
  }
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

/** JWT mode: the session logs in with the account key and refreshes before the token expires. */
function jwtSessionFor(
  options: RunBotOptions,
  rest: RestClient,
  clock: Clock,
  context: () => SigningContext | undefined,
): JwtSession {
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
      if (c === undefined)
        throw new PerpbotError('JWT login before the engine read the venue domain', { code: 'ENGINE_NOT_STARTED' });
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

/**
 * Start-up waits (bounded by the start-up deadline) until the private feeds are authenticated, so
 * strategies start on a connection that sees their orders and fills; each wait is logged.
 */
async function waitForPrivateFeeds(
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

function waitForAbort(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

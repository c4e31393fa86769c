import { resolve } from 'node:path';
import { Subscription } from 'rxjs';
import { addressOfPrivateKey } from '../../protocol/privateKeys.js';
import { systemClock, type Clock } from '../../core/clock.js';
import { registerSecret } from '../../core/secretRegistry.js';
import { Teardown } from '../../core/teardown.js';
import type { Engine } from '../../engine/engine.js';
import type { HostedStrategy, StrategyHost } from '../../strategy/strategyHost.js';
import type { RestClient } from '../../venue/rest/restClient.js';
import type { VenueWsClient } from '../../venue/ws/venueWsClient.js';
import { logConnection, logFills, logPositions, logTradingState } from './botActivityLog.js';
import { attachVenueFeeds, createBotEngine, startBotEngine } from './botEngine.js';
import { startBotBusyPoll } from './botBusyPoll.js';
import { BotSigning } from './botSigning.js';
import { hostStrategies } from './botStrategies.js';
import { DefiniteStop } from './definiteStop.js';
import { shutdownBot, type RunningBot } from './shutdownBot.js';
import { untilFailed } from './untilFailed.js';
import { botRestClient, botWsClient } from './venueClients.js';
import { waitForPrivateFeeds } from './waitForPrivateFeeds.js';
import type { Config } from '../config/configSchema.js';
import { BotService } from '../operations/control/botService.js';
import { tickEvery } from '../../core/tickEvery.js';
import { detach } from '../../core/detach.js';
import type { FreshnessBudgets } from '../freshness/freshnessBudgets.js';
import { freshnessBudgetsFor } from '../freshness/freshnessBudgetsFor.js';
import { holdJournal } from '../../journal/holdJournal.js';
import { JournalIntegrityWatch } from '../../journal/journalIntegrityWatch.js';
import { JournalError } from '../../journal/journalError.js';
import { ResilientEngineJournal } from '../../journal/resilientEngineJournal.js';
import { journalWriteFault } from '../../journal/journalWriteFault.js';
import type { JournalForBot, JournalForBotOptions } from '../../journal/journalForBot.js';
import { openJournalForBot } from '../../journal/openJournalForBot.js';
import { routeConsoleToLogger } from '../operations/logging/consoleBridge.js';
import type { Logger } from '../operations/logging/createLogger.js';
import { readAndCheckMarkets } from './startup/checkConfiguredMarkets.js';
import { bindUntilDeadline, type VenueWait } from './startup/untilDeadline.js';
import { loadStrategies } from './wiring/loadStrategies.js';
import { VenueExtras } from '../../strategy/wiring/venueExtras.js';
import { FlightRecorder } from '../recording/flightRecorder.js';
import { BotProtection } from '../protection/botProtection.js';
import { journalTpslExecutions } from '../protection/tpslExecutions.js';

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
  /** The config file's name without its extension, for the metrics' `perpbot_info`. */
  readonly configName?: string;
}

/**
 * Wires a venue (REST + WebSocket), the engine and the configured strategies, runs until the
 * signal aborts, then shuts down in order: strategies stop, open orders are cancelled or kept per
 * `shutdown.open_orders`, the engine drains, the connection closes. Each step below is undone,
 * last first, on every path.
 */
export async function runBot(options: RunBotOptions): Promise<void> {
  const teardown = new Teardown();
  await teardown.around(async () => {
    const { config, logger } = options;
    const clock = options.clock ?? systemClock;
    const runId = clock.now().toString(36);
    // 1. Before anything can log: the redactor recognises the keys by value in every line and answer.
    registerKeys(options.keys);
    // 2. The journal's lock: taken again when `perpbot start` holds it already (re-entrant).
    const lock = holdJournal(resolve(rootOf(options), config.journal.path), 'start', logger);
    teardown.add(() => lock.release());
    // 3. A strategy's console.log gets the logger's redaction, like every other line.
    teardown.add(routeConsoleToLogger(logger));
    // 4. The control service, so /health answers through a long start-up; closed last but the lock.
    const service = await startService(options, clock, runId);
    teardown.add(() => service.close());
    // 5. The flight recorder, when `recorder.enabled`.
    const flight = await openFlightRecorder(options, clock, runId);
    teardown.add(() => flight?.close());
    // 6. The venue's REST client and signing; the configured markets checked against the venue's.
    const run = botRun(options, clock, runId, service, flight);
    await readAndCheckMarkets(config, run.rest, run.startup);
    // 7. The journal, reconciled with the venue before anything trades; closed after the engine stopped writing.
    const journaled = await run.startup('the first reconciliation with the venue', () =>
      openJournalForBot(journalOptions(run)),
    );
    teardown.add(() => journaled.close());
    // 8. The engine on the journal, the venue followed, the strategies run until a stop, the ordered shutdown.
    await runJournaled(run, journaled);
  });
}

function registerKeys(keys: BotKeys): void {
  registerSecret(keys.signer.privateKey);
  if (keys.account.privateKey !== undefined) registerSecret(keys.account.privateKey);
}

function startService(options: RunBotOptions, clock: Clock, runId: string): Promise<BotService> {
  return BotService.start({
    config: options.config,
    logger: options.logger,
    clock,
    env: options.env ?? {},
    root: rootOf(options),
    account: options.keys.account.address,
    runId,
    ...(options.statusLine === undefined ? {} : { statusLine: options.statusLine }),
    ...(options.onControlServer === undefined ? {} : { onControlServer: options.onControlServer }),
    ...(options.configName === undefined ? {} : { configName: options.configName }),
  });
}

/** What the parts of one run share: the options and what the first steps made of them. */
interface BotRun {
  readonly options: RunBotOptions;
  readonly config: Config;
  readonly logger: Logger;
  readonly engineLog: Logger;
  readonly clock: Clock;
  readonly runId: string;
  readonly service: BotService;
  readonly rest: RestClient;
  readonly signing: BotSigning;
  /** Every market a strategy trades, once. */
  readonly markets: readonly number[];
  /** Start-up rides out a venue's bad minutes: each step runs again while it fails transiently. */
  readonly startup: VenueWait;
  /** The flight recorder, when `recorder.enabled`. */
  readonly flight: FlightRecorder | undefined;
}

/** The venue followed by the engine, and what the bot keeps of it besides. */
interface FollowedVenue {
  readonly ws: VenueWsClient;
  readonly venueExtras: VenueExtras;
  readonly stop: DefiniteStop;
  readonly subscriptions: Subscription;
}

function openFlightRecorder(options: RunBotOptions, clock: Clock, runId: string): Promise<FlightRecorder | undefined> {
  return FlightRecorder.open({
    config: options.config,
    root: rootOf(options),
    clock,
    logger: options.logger,
    venue: { restUrl: options.restUrl, wsUrl: options.wsUrl },
    markets: marketsOf(options.config),
    account: options.keys.account.address,
    signer: addressOfPrivateKey(options.keys.signer.privateKey),
    runId,
  });
}

function botRun(
  options: RunBotOptions,
  clock: Clock,
  runId: string,
  service: BotService,
  flight: FlightRecorder | undefined,
): BotRun {
  const { config, logger } = options;
  const rest = botRestClient(options.restUrl, config, logger, service, clock, flight?.onExchange);
  return {
    options,
    config,
    logger,
    engineLog: logger.child({ component: 'engine' }),
    clock,
    runId,
    service,
    rest,
    signing: new BotSigning(options.keys, config.auth.mode, rest, clock),
    markets: marketsOf(config),
    startup: bindUntilDeadline({
      deadlineMs: config.venue.startup_deadline_ms,
      clock,
      log: logger,
      signal: options.signal,
    }),
    flight,
  };
}

/** Every market a strategy trades, once. */
function marketsOf(config: Config): readonly number[] {
  return [...new Set(config.strategies.flatMap((s) => s.markets))];
}

function journalOptions(run: BotRun): JournalForBotOptions {
  const { options, config } = run;
  return {
    path: resolve(rootOf(options), config.journal.path),
    account: options.keys.account.address,
    rest: run.rest,
    clock: run.clock,
    log: run.engineLog,
    markets: run.markets,
    runId: run.runId,
    unknownOrders: config.reconcile.unknown_orders,
    adopter: (marketId) => config.strategies.find((s) => s.markets.includes(marketId))?.name,
    maxInFlightWaitMs: (config.auth.permit_deadline_seconds + 5) * 1000,
    beforeStartReconciliation: (journal) =>
      journalTpslExecutions({
        journal,
        rest: run.rest,
        account: options.keys.account.address,
        markets: run.markets,
        log: run.engineLog,
        atMs: run.clock.now(),
      }),
    ...optionalWriteFault(options.env ?? {}, run.logger),
  };
}

function optionalWriteFault(
  env: Readonly<Record<string, string | undefined>>,
  logger: Logger,
): Pick<JournalForBotOptions, 'writeFault'> {
  const writeFault = journalWriteFault(env, logger);
  return writeFault === undefined ? {} : { writeFault };
}

/** Starts the engine on the journal, follows the venue, runs the strategies; rejects with what stopped it unasked. */
async function runJournaled(run: BotRun, journaled: JournalForBot): Promise<void> {
  const journal = new ResilientEngineJournal({
    inner: run.service.instrumentJournal(journaled.engineJournal),
    journalPath: journaled.journal.path,
    log: run.engineLog,
    clock: run.clock,
  });
  journaled.guardWrites(journal);
  run.service.watchJournal(journal);
  const watch = new AbortController();
  let complete: boolean;
  try {
    await runOnJournal(run, journaled, journal, watch.signal);
  } finally {
    watch.abort();
    complete = reportKeptRecords(journal, run.logger);
  }
  // After the ordered shutdown: a run whose records did not all reach the journal does not end as a success.
  if (!complete) throw journalIncomplete(journal);
}

async function runOnJournal(
  run: BotRun,
  journaled: JournalForBot,
  journal: ResilientEngineJournal,
  watchSignal: AbortSignal,
): Promise<void> {
  const { options, config, service } = run;
  const engine = createBotEngine({
    config,
    account: options.keys.account.address,
    signing: run.signing,
    rest: run.rest,
    clock: run.clock,
    log: run.engineLog,
    markets: run.markets,
    journal,
    journaled,
  });
  journal.attach(engine.conditions);
  const protection = new BotProtection({
    config,
    engine,
    rest: run.rest,
    account: options.keys.account.address,
    signer: run.signing.signer,
    context: () => run.signing.contextFrom(engine),
    journal: journaled.journal,
    clock: run.clock,
    log: run.logger.child({ component: 'protection' }),
  });
  const integrity = integrityWatch(run, journal);
  // A vanished or refusing journal is noticed within a second, and written again once it can be;
  // a journal damaged in place, within a minute.
  detach(
    tickEvery(
      run.clock,
      1_000,
      watchSignal,
      () => {
        journal.checkFile();
        journal.retry();
        detach(integrity.tick(), (err) => run.logger.warn({ err }, 'journal integrity check failed'));
      },
      (err) => run.logger.warn({ err }, 'journal watch failed'),
    ),
    (err) => run.logger.warn({ err }, 'journal watch ended'),
  );
  const hosted = await loadStrategies(config, rootOf(options));
  const freshness = freshnessBudgetsFor(hosted, config, service.feeds);
  await startBotEngine(engine, {
    journaled,
    starting: (step) => service.starting(step),
    startup: run.startup,
    markets: run.markets,
  });
  const venue = await followVenue(run, engine, journaled);
  protection.start(watchSignal);
  await runStrategies(run, { engine, venue, hosted, freshness, journaled, protection });
  if (venue.stop.stoppedBy !== undefined) throw venue.stop.stoppedBy;
}

/** SQLite's quick_check of the journal every minute, off the event loop: a page damaged in place stops opening. */
function integrityWatch(run: BotRun, journal: ResilientEngineJournal): JournalIntegrityWatch {
  return new JournalIntegrityWatch({
    path: journal.path,
    everyMs: JOURNAL_CHECK_EVERY_MS,
    now: () => run.clock.now(),
    onDamaged: (reason) => journal.damaged(reason),
    onCheckFailed: (reason) => run.logger.warn({ reason }, 'the journal integrity check could not run; trying again'),
  });
}

const JOURNAL_CHECK_EVERY_MS = 60_000;

/** At the end of a run whose journal went down: the last try, and where what it could not take is. True: complete. */
function reportKeptRecords(journal: ResilientEngineJournal, logger: Logger): boolean {
  if (journal.retry()) return true;
  // The records themselves too: the fallback file may sit on the same full disk.
  logger.error(
    { kept: journal.keptCount, fallback: journal.fallbackFile, records: journal.keptRecords() },
    'the journal could not be written to the end: the records it lacks are in the fallback file; reconcile before the next start (perpbot reconcile)',
  );
  return false;
}

function journalIncomplete(journal: ResilientEngineJournal): JournalError {
  return new JournalError(
    `the journal ${journal.path} lacks ${journal.keptCount} record(s) of this run (orders, fills or nonces): they are in ${journal.fallbackFile} and in the log`,
    {
      code: 'JOURNAL_INCOMPLETE',
      details: { path: journal.path, kept: journal.keptCount, fallback: journal.fallbackFile },
      hints: [
        `keep ${journal.fallbackFile} for the review; make the journal writable again (free space, restore or move the file aside)`,
        'run `perpbot reconcile` with the same config to see the journal against the venue',
        'then start again: the start reconciles with the venue (open orders, positions, nonces) before it trades',
      ],
    },
  );
}

/**
 * The venue's WebSocket with the engine following it, the journal's after-start step (it follows
 * the engine's reconnects), and the bot's log lines of the connection, trading state, fills and
 * positions, each subscribed where the engine's start-up needs it.
 */
async function followVenue(run: BotRun, engine: Engine, journaled: JournalForBot): Promise<FollowedVenue> {
  const { options, logger } = run;
  const ws = botWsClient({
    wsUrl: options.wsUrl,
    config: run.config,
    logger,
    engine,
    rest: run.rest,
    account: options.keys.account.address,
    signer: run.signing.signer,
    context: run.signing.contextFrom(engine),
    clock: run.clock,
    onDecodeFailure: run.service.wireDrift.sink,
    ...(run.flight === undefined ? {} : { onFrame: run.flight.onFrame }),
  });
  run.flight?.followConnection(ws.connectionState$);
  const subscriptions = new Subscription();
  subscriptions.add(logConnection(ws, logger));
  const stop = new DefiniteStop(logger, run.service);
  // Before the engine attaches: a fill's venue time must be known when the engine reports the fill.
  const venueExtras = new VenueExtras();
  subscriptions.add(venueExtras.follow(ws));
  attachVenueFeeds(engine, ws, run.markets, stop.onStopped);
  subscriptions.add(logTradingState(engine, logger));
  await journaled.afterStart(engine, { positionsChanged$: untilFailed(ws.channel('positions')) });
  subscriptions.add(logFills(engine, logger));
  subscriptions.add(logPositions(ws, logger));
  return { ws, venueExtras, stop, subscriptions };
}

interface StartedBot {
  readonly engine: Engine;
  readonly venue: FollowedVenue;
  readonly hosted: readonly HostedStrategy[];
  readonly freshness: FreshnessBudgets;
  readonly journaled: JournalForBot;
  readonly protection: BotProtection;
}

/** Hosts the strategies and wires the service around them, runs until a stop, then shuts down. */
async function runStrategies(run: BotRun, started: StartedBot): Promise<void> {
  const { engine, venue, hosted, freshness, journaled, protection } = started;
  const { config, clock, logger, service } = run;
  const strategies = hostStrategies({
    config,
    hosted,
    freshness,
    engine,
    ws: venue.ws,
    venueExtras: venue.venueExtras,
    storage: (strategy) => journaled.storage(strategy),
    markets: run.markets,
    clock,
    logger,
    engineLog: run.engineLog,
    runId: run.runId,
    ...(run.flight === undefined ? {} : { routeIntent: run.flight.routeIntent }),
  });
  venue.subscriptions.add(strategies.outcomeLog);
  run.flight?.followEngine({
    outcomes: strategies.execution.outcomes,
    orderEvents: engine.orderEvents$,
    actions: engine.actions$,
    admissions: engine.admissions$,
  });
  const busyPoll = startBotBusyPoll(config, venue.ws, logger);
  service.wire({
    engine,
    ws: venue.ws,
    books: strategies.books,
    execution: strategies.execution,
    freshness,
    strategies: hosted.map((h) => ({ name: h.name, markets: h.markets })),
    strategyStatuses: () => strategies.host.statuses(),
    markets: run.markets,
    signer: run.signing.signer.address,
    ...(busyPoll === undefined ? {} : { busyPoll }),
    protection: () => protection.status(),
  });
  const bot: RunningBot = {
    engine,
    ws: venue.ws,
    strategies,
    subscriptions: venue.subscriptions,
    markets: run.markets,
    venue: { rest: run.rest, account: run.options.keys.account.address },
    reconcileJournal: () => journaled.reconcileAtStop(engine),
  };
  try {
    await runUntilStopped(run, bot, {
      strategyNames: hosted.map((h) => h.name),
      definiteStop: venue.stop.signal,
      allDone: strategies.allDone,
    });
  } finally {
    busyPoll?.stop();
    await shutdownBot(bot, { config, clock, logger, stopping: () => service.stopping() });
    await protection.stop(config.shutdown.protection);
  }
}

interface RunUntil {
  readonly strategyNames: readonly string[];
  /** Aborts when trading stopped for good (see DefiniteStop). */
  readonly definiteStop: AbortSignal;
  /** Aborts when every strategy is done and `shutdown.when_all_done` is `stop`. */
  readonly allDone: AbortSignal;
}

/** Waits for the private feeds, starts the strategies, and runs until the signal, a definite stop or all done. */
async function runUntilStopped(run: BotRun, bot: RunningBot, until: RunUntil): Promise<void> {
  const { options, config, clock, logger } = run;
  const { definiteStop, allDone } = until;
  const { host } = bot.strategies;
  const startSignal = AbortSignal.any([options.signal, definiteStop]);
  await waitForPrivateFeeds(bot.ws, config.venue.startup_deadline_ms, clock, logger, startSignal);
  await host.start();
  run.flight?.marker('strategies_started');
  logger.info(
    {
      account: options.keys.account.address,
      signer: run.signing.signer.address,
      strategies: until.strategyNames,
      dryRun: config.engine.dry_run,
    },
    'bot running',
  );
  options.onReady?.({ engine: bot.engine, host });
  await waitForAbort(AbortSignal.any([options.signal, definiteStop, allDone]));
  run.flight?.marker('stopping');
  logger.info({}, 'stopping');
}

function rootOf(options: RunBotOptions): string {
  return options.root ?? process.cwd();
}

function waitForAbort(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

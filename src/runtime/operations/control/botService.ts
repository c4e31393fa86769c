import { dirname, resolve } from 'node:path';
import { Subscription, type Observable } from 'rxjs';
import type { BusyPoll } from '../../../core/busyPoll.js';
import type { Clock } from '../../../core/clock.js';
import type { Engine } from '../../../engine/engine.js';
import type { EngineJournal } from '../../../engine/tracking/engineJournal.js';
import type { IntentOutcome } from '../../../engine/intents/intentOutcome.js';
import type { OrderBookFeed } from '../../../venue/orderbook/orderBookFeed.js';
import type { RestClient } from '../../../venue/rest/restClient.js';
import type { RestRetryEvent } from '../../../venue/rest/restTransport.js';
import type { VenueWsClient } from '../../../venue/ws/venueWsClient.js';
import { watchForAlerts, type AlertSources, type AlertWatch } from '../alerts/alertWatch.js';
import { WebhookAlerts } from '../alerts/webhookAlerts.js';
import type { Config } from '../../config/configSchema.js';
import { effectiveRisk } from '../../../engine/guards/riskLimits.js';
import { perpbotVersion } from '../../perpbotVersion.js';
import { FeedClock } from '../../freshness/feedClock.js';
import { followFeeds } from '../../freshness/followFeeds.js';
import type { FreshnessBudgets, FreshnessChange } from '../../freshness/freshnessBudgets.js';
import type { Logger } from '../logging/createLogger.js';
import { BotMetrics } from '../metrics/botMetrics.js';
import { meteredJournal } from '../metrics/meteredJournal.js';
import { observeBotMetrics } from '../metrics/observeBotMetrics.js';
import { timedRestClient } from '../metrics/timedRestClient.js';
import { formatStatusLine } from '../terminal/formatStatusLine.js';
import { createWireDriftMonitor, type WireDriftMonitor } from '../wire/wireDriftMonitor.js';
import { webhookUrlFrom } from '../alerts/webhookUrl.js';
import { BotControl } from './botControl.js';
import { BotMonitor, type BotMonitorOptions, type JournalState, type MonitoredBudgets } from './botMonitor.js';
import { controlFileFor, removeControlFile, writeControlFile } from './controlFile.js';
import { startControlServer, type ControlServer } from './controlServer.js';
import { loadControlToken } from './controlToken.js';
import { tickEvery } from '../../../core/tickEvery.js';
import type { ProtectionStatus } from './botStatus.js';

export interface BotServiceOptions {
  readonly config: Config;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Relative paths (journal, token file) are resolved from here. */
  readonly root: string;
  readonly account: string;
  readonly runId: string;
  /** The config file's name without its extension, for `perpbot_info` (default `unnamed`). */
  readonly configName?: string;
  /** Where the terminal's status line goes (a TTY); absent: none. */
  readonly statusLine?: { write(text: string): void };
  /** Called with the control server's URL once it listens. */
  readonly onControlServer?: (url: string) => void;
}

/** The running bot, as the service watches it. */
export interface WiredBot {
  readonly engine: Engine;
  readonly ws: VenueWsClient;
  readonly books: OrderBookFeed;
  /** The strategies' execution port, as far as the service reads it (their budgets' kill switches). */
  readonly execution: MonitoredBudgets & { readonly outcomes: Observable<IntentOutcome> };
  readonly freshness: FreshnessBudgets;
  readonly strategies: readonly { readonly name: string; readonly markets: readonly number[] }[];
  readonly strategyStatuses: () => ReadonlyMap<string, string>;
  readonly markets: readonly number[];
  readonly signer: string;
  /** The bot's busy poll (`busy_poll:` on); absent when off. */
  readonly busyPoll?: BusyPoll;
  /** The protection keeper's view (`protection:`), when a strategy is protected. */
  readonly protection?: (() => ProtectionStatus | null) | undefined;
}

const TICK_MS = 250;
const STATUS_LINE_EVERY_MS = 5_000;

/**
 * Everything that lets a person or a supervisor watch a headless bot, wired around it without
 * changing how it trades: the control server (off unless `control:` is configured), the metrics,
 * webhook alerts (`alerts:`), the streams' freshness clock, and the terminal's status line. Start
 * it first (so /health answers during start-up), `wire` it once the engine runs, `close` it last.
 */
export class BotService {
  readonly feeds: FeedClock;
  /**
   * Where the venue clients report bodies and frames they could not decode (`wireDrift.sink` is
   * their `onDecodeFailure`): counted, logged once per shape, sampled under the journal directory.
   */
  readonly wireDrift: WireDriftMonitor;
  private readonly metrics: BotMetrics | undefined;
  private readonly control: BotControl | undefined;
  private server: ControlServer | undefined;
  private controlFile: string | undefined;
  private alerts: WebhookAlerts | undefined;
  private watch: AlertWatch | undefined;
  private monitor: BotMonitor | undefined;
  private journal: JournalState = NO_JOURNAL_YET;
  private readonly subscriptions = new Subscription();
  private readonly ticking = new AbortController();
  private ticker: Promise<void> | undefined;

  private constructor(private readonly options: BotServiceOptions) {
    this.feeds = new FeedClock(options.clock);
    if (options.config.control !== undefined) {
      this.metrics = new BotMetrics();
      this.metrics.identify({
        account: options.account,
        version: perpbotVersion(),
        config: options.configName ?? 'unnamed',
        profile: options.config.venue.profile,
      });
      this.control = new BotControl(this.metrics);
    }
    this.wireDrift = createWireDriftMonitor({
      logger: options.logger.child({ component: 'wire' }),
      journalDir: dirname(resolve(options.root, options.config.journal.path)),
      clock: options.clock,
      ...(this.metrics === undefined ? {} : { counter: this.metrics.wireDecodeFailures }),
    });
  }

  static async start(options: BotServiceOptions): Promise<BotService> {
    const service = new BotService(options);
    try {
      service.startAlerts();
      await service.startControl();
    } catch (error) {
      await service.close();
      throw error;
    }
    return service;
  }

  /** The REST client, timed and its errors counted when metrics are on. */
  instrumentRest(rest: RestClient): RestClient {
    return this.metrics === undefined ? rest : timedRestClient(rest, this.metrics);
  }

  /** The REST client's `onRetry`, counted as well as `log`ged. */
  onRestRetry(log: (event: RestRetryEvent) => void): (event: RestRetryEvent) => void {
    const metrics = this.metrics;
    if (metrics === undefined) return log;
    return (event) => {
      metrics.restRetries.inc({ endpoint: event.endpoint });
      log(event);
    };
  }

  /** The engine's journal hooks, teed into the metrics (resends, tick-to-trade) when they are on. */
  instrumentJournal(journal: EngineJournal): EngineJournal {
    return this.metrics === undefined ? journal : meteredJournal(journal, this.metrics, this.feeds);
  }

  /** The journal the engine writes through, for the status (and metrics) to say whether it takes writes. */
  watchJournal(journal: JournalState): void {
    this.journal = journal;
  }

  /** What /ready says while the bot starts. */
  starting(step: string): void {
    this.control?.starting(step);
  }

  /** Watches the running bot: its feeds' ages, its status, metrics and alerts, and a tick that polls them. */
  wire(bot: WiredBot): void {
    const { logger } = this.options;
    this.subscriptions.add(
      followFeeds({
        ws: bot.ws,
        books: bot.books,
        feeds: this.feeds,
        markets: bot.markets,
        declared: bot.freshness.declared(),
      }),
    );
    const monitor = this.monitorOf(bot);
    this.monitor = monitor;
    this.subscriptions.add(logFreshnessChanges(bot.freshness.changes$, logger));
    if (this.metrics !== undefined)
      this.subscriptions.add(
        observeBotMetrics(this.metrics, {
          outcomes: bot.execution.outcomes,
          fills$: bot.engine.fills$,
          freshness$: bot.freshness.changes$,
        }),
      );
    if (this.alerts !== undefined)
      this.watch = watchForAlerts(
        this.alerts,
        alertSourcesOf(bot, () => monitor.status().protection),
      );
    this.control?.attach(monitor, bot.engine);
    this.ticker = this.tick(bot.freshness, monitor);
  }

  private monitorOf(bot: WiredBot): BotMonitor {
    return new BotMonitor({
      account: this.options.account,
      signer: bot.signer,
      runId: this.options.runId,
      dryRun: this.options.config.engine.dry_run,
      clock: this.options.clock,
      engine: bot.engine,
      budgets: bot.execution,
      strategies: bot.strategies,
      strategyStatuses: bot.strategyStatuses,
      freshness: bot.freshness,
      feeds: this.feeds,
      connection$: bot.ws.connectionState$,
      reconnects: () => bot.ws.metrics.reconnects,
      busyPoll: () => bot.busyPoll?.current ?? 'stopped',
      lossLimits: lossLimitsOf(this.options.config),
      journal: this.journal,
      protection: bot.protection,
    });
  }

  /** Every TICK_MS: the freshness budgets, the alerts' polls, the equity curve, and now and then the status line. */
  private tick(freshness: FreshnessBudgets, monitor: BotMonitor): Promise<void> {
    const { clock, logger, statusLine } = this.options;
    let ticks = 0;
    return tickEvery(
      clock,
      TICK_MS,
      this.ticking.signal,
      () => {
        freshness.check();
        this.watch?.poll();
        monitor.sample();
        if (statusLine !== undefined && ++ticks % (STATUS_LINE_EVERY_MS / TICK_MS) === 0)
          statusLine.write(`${formatStatusLine(monitor.status())}\n`);
      },
      (error) => logger.warn({ err: error }, 'a service tick failed'),
    );
  }

  /** A feed failed for good: the bot stops (alerted). */
  feedLost(channel: string, message: string): void {
    this.watch?.feedLost(channel, message);
  }

  /** From now on /ready answers 503 (the bot is stopping). */
  stopping(): void {
    this.monitor?.stopping();
  }

  /** Stops watching; gives queued alerts a moment to go; closes the control server last. */
  async close(): Promise<void> {
    this.ticking.abort();
    await this.ticker;
    // A last look, so an alert for what happened during shutdown (the kill switch) still goes.
    this.watch?.poll();
    this.watch?.close();
    this.subscriptions.unsubscribe();
    this.monitor?.close();
    await this.alerts?.close(2_000);
    await this.wireDrift.flush();
    if (this.controlFile !== undefined) removeControlFile(this.controlFile, process.pid);
    await this.server?.close();
  }

  private startAlerts(): void {
    const alerts = this.options.config.alerts;
    if (alerts === undefined) return;
    const metrics = this.metrics;
    this.alerts = new WebhookAlerts({
      url: webhookUrlFrom(alerts.webhook_url_env, this.options.env),
      events: new Set(alerts.events),
      bot: `${this.options.account.slice(0, 10)}…`,
      clock: this.options.clock,
      log: this.options.logger.child({ component: 'alerts' }),
      timeoutMs: alerts.timeout_ms,
      attempts: alerts.attempts,
      ...(metrics === undefined ? {} : { onResult: (event, result) => metrics.alerts.inc({ event, result }) }),
    });
  }

  private async startControl(): Promise<void> {
    const { config, logger, root } = this.options;
    if (config.control === undefined || this.control === undefined) return;
    const token = await loadControlToken(config.control, this.options.env, root);
    this.server = await startControlServer({
      host: config.control.host,
      port: config.control.port,
      control: this.control,
      token,
      tokenSource:
        config.control.token_file === undefined
          ? `environment variable ${config.control.token_env}`
          : `${config.control.token_env} or control.token_file`,
      log: logger.child({ component: 'control' }),
      allowedHosts: config.control.allowed_hosts,
    });
    this.controlFile = controlFileFor(resolve(root, config.journal.path));
    writeControlFile(this.controlFile, {
      url: this.server.url,
      pid: process.pid,
      account: this.options.account,
      startedAt: new Date(this.options.clock.now()).toISOString(),
    });
    this.options.onControlServer?.(this.server.url);
  }
}

const NO_JOURNAL_YET: JournalState = { isDown: false, keptCount: 0, fallbackFile: '' };

/** The loss each kill switch trips at: the account's, and each strategy's own budget or the account's. */
function lossLimitsOf(config: Config): BotMonitorOptions['lossLimits'] {
  const account = config.risk.kill_switch.max_loss;
  const byStrategy = new Map(
    config.strategies.map((s) => [s.name, effectiveRisk(config.risk, s).kill_switch.max_loss]),
  );
  return { account, strategy: (name) => byStrategy.get(name) ?? account };
}

/** One line each time a strategy goes reduce-only on a late stream, and when its streams are fresh again. */
function logFreshnessChanges(changes$: Observable<FreshnessChange>, logger: Logger): Subscription {
  return changes$.subscribe((change) => {
    const feeds = change.feeds.map((f) => `${f.channel}:${f.marketId}`).join(', ');
    if (change.stale)
      logger.warn(
        { strategy: change.strategy, feeds: change.feeds },
        `strategy reduce-only: a stream it depends on is late (FEED_STALE: ${feeds})`,
      );
    else logger.info({ strategy: change.strategy }, 'strategy streams fresh again: opening intents allowed');
  });
}

/** What the alerts watch: the engine's state, the connection, freshness, outcomes, fills, every kill switch. */
function alertSourcesOf(bot: WiredBot, protection: () => ProtectionStatus | null): AlertSources {
  return {
    tradingState$: bot.engine.tradingState$,
    connection$: bot.ws.connectionState$,
    freshness$: bot.freshness.changes$,
    outcomes: bot.execution.outcomes,
    fills$: bot.engine.fills$,
    killSwitches: () => [
      { scope: 'account', ...bot.engine.killSwitch },
      ...bot.strategies.map((s) => ({ scope: s.name, tripped: false, ...bot.execution.killSwitch(s.name) })),
    ],
    strategyStatuses: bot.strategyStatuses,
    protection,
  };
}

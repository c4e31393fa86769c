import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Subscription } from 'rxjs';
import { Engine } from '../../../engine/engine.js';
import { dryRunSender, venueSender } from '../../../engine/sending/actionSender.js';
import type { Intent } from '../../../engine/intents/intents.js';
import type { SyncDigestSigner } from '../../../protocol/digestSigner.js';
import { fastPrivateKeySigner } from '../../../protocol/nativeSigner.js';
import { SELECTOR_PROFILES } from '../../../protocol/selectors.js';
import type { HostedStrategy, StrategyHost } from '../../../strategy/strategyHost.js';
import type { VirtualTime } from '../../../inProcess/virtualTime.js';
import { createRestClient, type RestClient } from '../../../venue/rest/restClient.js';
import { attachVenueFeeds } from '../../bot/botEngine.js';
import { hostStrategies, type BotStrategies } from '../../bot/botStrategies.js';
import type { Config } from '../../config/configSchema.js';
import { FeedClock } from '../../freshness/feedClock.js';
import { followFeeds } from '../../freshness/followFeeds.js';
import { freshnessBudgetsFor } from '../../freshness/freshnessBudgetsFor.js';
import type { JournalForBot } from '../../../journal/journalForBot.js';
import { openJournalForBot } from '../../../journal/openJournalForBot.js';
import type { Logger } from '../../operations/logging/createLogger.js';
import { engineConfigFromConfig } from '../../bot/wiring/engineConfigFromConfig.js';
import { loadStrategies } from '../../bot/wiring/loadStrategies.js';
import { VenueExtras } from '../../../strategy/wiring/venueExtras.js';
import type { FlightRun } from './readFlight.js';
import type { RecordedChannels } from './recordedChannels.js';
import type { RecordedRest } from './recordedRest.js';

/** Signs the replay's actions: no answer depends on it (the recorded ones are given), and it is no one's key. */
const REPLAY_SIGNING_KEY = `0x${'5a'.repeat(32)}` as const;

export interface ReplayBotOptions {
  readonly config: Config;
  /** Where strategy modules are resolved from. */
  readonly root: string;
  readonly time: VirtualTime;
  readonly rest: RecordedRest;
  readonly channels: RecordedChannels;
  readonly flight: FlightRun['header']['flight'];
  readonly markets: readonly number[];
  /** When the recorded bot made its engine (see `verifyFlight`): the replay's is made then too. */
  readonly engineStartMs: number;
  readonly logger: Logger;
  /** Every intent the strategies submit, and how to hand it on to the engine (see `hostStrategies`). */
  readonly routeIntent: (intent: Intent, submit: (intent: Intent) => void) => void;
  /** What a placement waits for before the engine admits it (see `EngineOptions.admissionHold`). */
  readonly admissionHold?: (intent: Intent) => Promise<void> | undefined;
  /** Told of the engine once it is made (a trace of its outputs). */
  readonly onEngine?: (engine: Engine) => void;
}

/**
 * The recorded bot again, as `runBot` wires it, on a flight recording instead of a venue: the real
 * engine (admission, checks, tracking, signing) on the recorded REST answers and the recorded
 * channels, the configured strategies hosted on them with their budgets and freshness, every
 * intent they submit routed through `routeIntent`. On virtual time, as the acting account and signer of the
 * recording and with its run id (so intent ids come out the same), with a journal of its own (a
 * fresh one in a temporary directory, reconciled on the recorded reads as the recorded bot's was:
 * its reconnect reconciliation is one of the engine's trading conditions). A restarted bot's
 * restored journal is not in the recording; its reconciliation reads are.
 */
export class ReplayBot {
  private readonly subscriptions = new Subscription();
  private strategies: BotStrategies | undefined;
  private engine: Engine | undefined;
  private journaled: JournalForBot | undefined;
  private readonly rest: RestClient;
  private readonly journalDir = mkdtempSync(join(tmpdir(), 'perpbot-flight-replay-'));

  /** Loads the strategies first: a module's import is real I/O, which must not overlap virtual time. */
  static async create(o: ReplayBotOptions): Promise<ReplayBot> {
    return new ReplayBot(o, await loadStrategies(o.config, o.root));
  }

  private constructor(
    private readonly o: ReplayBotOptions,
    private readonly hosted: readonly HostedStrategy[],
  ) {
    this.rest = createRestClient({
      baseUrl: 'http://flight.recording.invalid',
      timeoutMs: o.config.venue.request_timeout_ms,
      fetch: o.rest.fetch,
      rateLimit: false,
      clock: o.time,
    });
  }

  /**
   * As `runBot` starts: the journal reconciled, the engine made (at the recorded time) and started
   * on it, the recorded feeds attached, the journal's reconnect part added, the strategies hosted
   * (not started).
   */
  async start(): Promise<void> {
    const { o } = this;
    const journaled = await openJournalForBot(this.journalOptions());
    this.journaled = journaled;
    await o.time.sleep(Math.max(0, o.engineStartMs - o.time.now()));
    const engine = this.createEngine(journaled);
    o.onEngine?.(engine);
    journaled.beforeStart(engine);
    await engine.start();
    const extras = new VenueExtras();
    this.subscriptions.add(extras.follow(o.channels));
    attachVenueFeeds(engine, o.channels, o.markets, (error) =>
      o.logger.warn({ err: error }, 'the replayed engine stopped trading'),
    );
    await journaled.afterStart(engine, { positionsChanged$: o.channels.channel('positions') });
    this.host(engine, journaled, extras);
  }

  private journalOptions(): Parameters<typeof openJournalForBot>[0] {
    const { o } = this;
    return {
      path: join(this.journalDir, 'journal.sqlite'),
      account: o.flight.account,
      rest: this.rest,
      clock: o.time,
      log: o.logger.child({ component: 'engine' }),
      markets: o.markets,
      runId: o.flight.runId,
      unknownOrders: o.config.reconcile.unknown_orders,
      adopter: (marketId) => o.config.strategies.find((s) => s.markets.includes(marketId))?.name,
      maxInFlightWaitMs: (o.config.auth.permit_deadline_seconds + 5) * 1000,
    };
  }

  private createEngine(journaled: JournalForBot): Engine {
    const { o } = this;
    const log = o.logger.child({ component: 'engine' });
    this.engine = new Engine({
      account: o.flight.account as `0x${string}`,
      signer: actingAs(o.flight.signer as `0x${string}`),
      rest: this.rest,
      sender: o.config.engine.dry_run ? dryRunSender(log) : venueSender(this.rest),
      config: engineConfigFromConfig(o.config),
      selectors: SELECTOR_PROFILES[o.config.venue.selectors],
      clock: o.time,
      log,
      markets: o.markets,
      permitDeadlineSeconds: o.config.auth.permit_deadline_seconds,
      journal: journaled.engineJournal,
      ...(o.admissionHold === undefined ? {} : { admissionHold: o.admissionHold }),
      ...(journaled.restoredNonceHighWater === undefined
        ? {}
        : { restoredNonceHighWater: journaled.restoredNonceHighWater }),
    });
    return this.engine;
  }

  private host(engine: Engine, journaled: JournalForBot, extras: VenueExtras): void {
    const { o, hosted } = this;
    const feeds = new FeedClock(o.time);
    const freshness = freshnessBudgetsFor(hosted, o.config, feeds);
    this.strategies = hostStrategies({
      config: o.config,
      hosted,
      freshness,
      engine,
      ws: o.channels,
      venueExtras: extras,
      storage: (name) => journaled.storage(name),
      markets: o.markets,
      clock: o.time,
      logger: o.logger,
      engineLog: o.logger.child({ component: 'engine' }),
      runId: o.flight.runId,
      routeIntent: o.routeIntent,
      scheduler: o.time,
    });
    this.subscriptions.add(this.strategies.outcomeLog);
    this.subscriptions.add(
      followFeeds({
        ws: o.channels,
        books: this.strategies.books,
        feeds,
        markets: o.markets,
        declared: freshness.declared(),
      }),
    );
  }

  /** The strategies start where the recorded bot started them. */
  get strategyHost(): StrategyHost | undefined {
    return this.strategies?.host;
  }

  async stop(): Promise<void> {
    try {
      this.strategies?.execution.close();
      await this.engine?.stop();
      this.subscriptions.unsubscribe();
    } finally {
      this.journaled?.close();
      rmSync(this.journalDir, { recursive: true, force: true });
    }
  }
}

/** The recorded signer's address (what the venue's answers name) over a key of the replay's own. */
function actingAs(address: `0x${string}`): SyncDigestSigner {
  const signer = fastPrivateKeySigner(REPLAY_SIGNING_KEY);
  return { address, signDigest: (digest) => signer.signDigest(digest) };
}

import { Subscription } from 'rxjs';
import { Engine } from '../../engine/engine.js';
import { dryRunSender, venueSender } from '../../engine/sending/actionSender.js';
import type { Intent } from '../../engine/intents/intents.js';
import type { SyncDigestSigner } from '../../protocol/digestSigner.js';
import { fastPrivateKeySigner } from '../../protocol/nativeSigner.js';
import { SELECTOR_PROFILES } from '../../protocol/selectors.js';
import type { StrategyStorage } from '../../strategy/strategyContext.js';
import type { HostedStrategy, StrategyHost } from '../../strategy/strategyHost.js';
import type { VirtualTime } from '../time/virtualTime.js';
import { createRestClient } from '../../venue/rest/restClient.js';
import { attachVenueFeeds } from '../bot/botEngine.js';
import { hostStrategies, type BotStrategies } from '../bot/botStrategies.js';
import type { Config } from '../config/configSchema.js';
import { FeedClock } from '../freshness/feedClock.js';
import { followFeeds } from '../freshness/followFeeds.js';
import { freshnessBudgetsFor } from '../freshness/freshnessBudgetsFor.js';
import type { Logger } from '../logging/createLogger.js';
import { engineConfigFromConfig } from '../wiring/engineConfigFromConfig.js';
import { loadStrategies } from '../wiring/loadStrategies.js';
import { VenueExtras } from '../wiring/venueExtras.js';
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
  readonly logger: Logger;
  /** Every intent the strategies submit, and how to hand it on to the engine (see `hostStrategies`). */
  readonly routeIntent: (intent: Intent, submit: (intent: Intent) => void) => void;
}

/**
 * The recorded bot again, as `runBot` wires it, on a flight recording instead of a venue: the real
 * engine (admission, checks, tracking, signing) on the recorded REST answers and the recorded
 * channels, the configured strategies hosted on them with their budgets and freshness, every
 * intent they submit routed through `routeIntent`. On virtual time, as the acting account and signer of the
 * recording and with its run id (so intent ids come out the same). No journal: a restarted bot's
 * restored state is not in the recording (its reconciliation reads are).
 */
export class ReplayBot {
  private readonly subscriptions = new Subscription();
  private strategies: BotStrategies | undefined;
  private readonly engine: Engine;

  /** Loads the strategies first: a module's import is real I/O, which must not overlap virtual time. */
  static async create(o: ReplayBotOptions): Promise<ReplayBot> {
    return new ReplayBot(o, await loadStrategies(o.config, o.root));
  }

  private constructor(
    private readonly o: ReplayBotOptions,
    private readonly hosted: readonly HostedStrategy[],
  ) {
    const rest = createRestClient({
      baseUrl: 'http://flight.recording.invalid',
      timeoutMs: o.config.venue.request_timeout_ms,
      fetch: o.rest.fetch,
      rateLimit: false,
      clock: o.time,
    });
    const log = o.logger.child({ component: 'engine' });
    this.engine = new Engine({
      account: o.flight.account as `0x${string}`,
      signer: actingAs(o.flight.signer as `0x${string}`),
      rest,
      sender: o.config.engine.dry_run ? dryRunSender(log) : venueSender(rest),
      config: engineConfigFromConfig(o.config),
      selectors: SELECTOR_PROFILES[o.config.venue.selectors],
      clock: o.time,
      log,
      markets: o.markets,
      permitDeadlineSeconds: o.config.auth.permit_deadline_seconds,
    });
  }

  /** Starts the engine on the recorded answers, attaches the recorded feeds and hosts the strategies (not started). */
  async start(): Promise<void> {
    const { o, engine, hosted } = this;
    await engine.start();
    const extras = new VenueExtras();
    this.subscriptions.add(extras.follow(o.channels));
    attachVenueFeeds(engine, o.channels, o.markets, (error) =>
      o.logger.warn({ err: error }, 'the replayed engine stopped trading'),
    );
    const feeds = new FeedClock(o.time);
    const freshness = freshnessBudgetsFor(hosted, o.config, feeds);
    const storage = new Map<string, Map<string, unknown>>();
    this.strategies = hostStrategies({
      config: o.config,
      hosted,
      freshness,
      engine,
      ws: o.channels,
      venueExtras: extras,
      storage: (name) => memoryStorage(storage, name),
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
  get host(): StrategyHost | undefined {
    return this.strategies?.host;
  }

  async stop(): Promise<void> {
    this.strategies?.execution.close();
    await this.engine.stop();
    this.subscriptions.unsubscribe();
  }
}

/** The recorded signer's address (what the venue's answers name) over a key of the replay's own. */
function actingAs(address: `0x${string}`): SyncDigestSigner {
  const signer = fastPrivateKeySigner(REPLAY_SIGNING_KEY);
  return { address, signDigest: (digest) => signer.signDigest(digest) };
}

/** A strategy's storage for one replay: starts empty, as a fresh journal's does. */
function memoryStorage(all: Map<string, Map<string, unknown>>, strategy: string): StrategyStorage {
  const own = all.get(strategy) ?? new Map<string, unknown>();
  all.set(strategy, own);
  return {
    load: (key, schema) => {
      const value = own.get(key);
      if (value === undefined) return undefined;
      const parsed = schema.safeParse(value);
      return parsed.success ? parsed.data : undefined;
    },
    save: (key, value) => void own.set(key, JSON.parse(JSON.stringify(value)) as unknown),
    delete: (key) => void own.delete(key),
  };
}

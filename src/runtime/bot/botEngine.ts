import type { Clock } from '../../core/clock.js';
import { PerpbotError } from '../../core/perpbotError.js';
import { Engine, type EngineHooks } from '../../engine/engine.js';
import { dryRunSender, venueSender } from '../../engine/sending/actionSender.js';
import type { EngineJournal } from '../../engine/tracking/engineJournal.js';
import { SELECTOR_PROFILES } from '../../protocol/selectors.js';
import type { RestClient } from '../../venue/rest/restClient.js';
import type { VenueWsClient } from '../../venue/ws/venueWsClient.js';
import type { Config } from '../config/configSchema.js';
import type { JournalForBot } from '../../journal/journalForBot.js';
import type { Logger } from '../operations/logging/createLogger.js';
import type { VenueWait } from './startup/untilDeadline.js';
import { engineConfigFromConfig } from './wiring/engineConfigFromConfig.js';
import type { BotSigning } from './botSigning.js';

export interface BotEngineOptions {
  readonly config: Config;
  readonly account: `0x${string}`;
  readonly signing: BotSigning;
  readonly rest: RestClient;
  readonly clock: Clock;
  readonly log: Logger;
  readonly markets: readonly number[];
  /** The journal's write-ahead hooks (instrumented by the service). */
  readonly journal: EngineJournal;
  readonly journaled: Pick<JournalForBot, 'restoredNonceHighWater'>;
}

/** The engine as the config asks for it: dry run or the venue, permit or JWT, the journal's nonces restored. */
export function createBotEngine(o: BotEngineOptions): Engine {
  const { config, journaled } = o;
  return new Engine({
    account: o.account,
    signer: o.signing.signer,
    rest: o.rest,
    sender: config.engine.dry_run ? dryRunSender(o.log) : venueSender(o.rest, o.signing.jwt),
    authMode: config.auth.mode,
    config: engineConfigFromConfig(config),
    selectors: SELECTOR_PROFILES[config.venue.selectors],
    clock: o.clock,
    log: o.log,
    markets: o.markets,
    permitDeadlineSeconds: config.auth.permit_deadline_seconds,
    journal: o.journal,
    ...(journaled.restoredNonceHighWater === undefined
      ? {}
      : { restoredNonceHighWater: journaled.restoredNonceHighWater }),
  });
}

export interface EngineStart {
  readonly journaled: Pick<JournalForBot, 'beforeStart'>;
  /** What /ready says meanwhile. */
  readonly starting: (step: string) => void;
  readonly startup: VenueWait;
  readonly markets: readonly number[];
}

/**
 * Starts the engine (domain, system config, markets, nonce state, a reconciliation) with the
 * journal as its fill ledger, riding out the venue's transient failures until the start-up
 * deadline; then every configured market must be one the venue lists.
 */
export async function startBotEngine(engine: Engine, o: EngineStart): Promise<void> {
  o.journaled.beforeStart(engine);
  o.starting('reading the venue and reconciling the engine');
  await o.startup('reading the domain, system config, markets and nonce state', () => engine.start());
  for (const id of o.markets) {
    if (engine.market(id) === undefined) {
      throw new PerpbotError(`market ${id} is not listed by the venue`, {
        code: 'CONFIG_MARKET',
        hints: ["check the strategies' markets against GET /v1/markets"],
      });
    }
  }
}

/** The engine follows the venue's private feeds, the oracle of its markets and the connection. */
export function attachVenueFeeds(
  engine: Engine,
  ws: Pick<VenueWsClient, 'channel' | 'connectionState$' | 'framesLost$' | 'streamCounted$'>,
  markets: readonly number[],
  onStopped: NonNullable<EngineHooks['onStopped']>,
): void {
  engine.attach(
    {
      orders: ws.channel('orders'),
      positions: ws.channel('positions'),
      fills: ws.channel('fills'),
      account: ws.channel('account'),
      oracle: ws.channel('oracle', { marketIds: markets }),
      connection: ws.connectionState$,
      framesLost: ws.framesLost$,
      streamCounted: ws.streamCounted$,
    },
    { onStopped },
  );
}

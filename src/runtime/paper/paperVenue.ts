import type { Clock } from '../../core/clock.js';
import { DrivenMarket } from '../../sim/replay/drivenMarket.js';
import { marketDefinitionOf } from '../../sim/replay/venueMarkets.js';
import { startSim, type RunningSim } from '../../sim/startSim.js';
import type { RestClient } from '../../venue/rest/restClient.js';
import { configuredMarkets } from '../config/configuredMarkets.js';
import { selectorsOf } from '../config/selectorsOf.js';
import type { Config } from '../config/configSchema.js';
import type { Logger } from '../operations/logging/createLogger.js';
import { recordPublicFeeds } from '../recording/recordPublicFeeds.js';
import { readAndCheckMarkets } from '../bot/startup/checkConfiguredMarkets.js';
import type { VenueWait } from '../bot/startup/untilDeadline.js';
import { PaperFeedError } from './paperFeedError.js';

/** The local shadow a paper bot trades on, and the live feed that drives it. */
export interface PaperVenue {
  readonly sim: RunningSim;
  readonly driven: DrivenMarket;
  /** Stops following the venue, then closes the shadow. Idempotent. */
  close(): Promise<void>;
}

export interface PaperVenueOptions {
  readonly config: Config;
  /** The real venue's REST (public reads only: its markets). */
  readonly venueRest: Pick<RestClient, 'markets'>;
  readonly wait: VenueWait;
  readonly clock: Clock;
  readonly logger: Logger;
}

/**
 * `profile: paper`: the venue's configured markets copied into a simulator in this process, whose
 * book, trades and mark follow the venue's public feed as it arrives (`DrivenMarket`: the same
 * fill rules as replay). The bot trades on the shadow as on any venue; nothing is signed for, or
 * sent to, the real venue, which sees one public WebSocket and one public read.
 */
export async function startPaperVenue(o: PaperVenueOptions): Promise<PaperVenue> {
  const { config, clock, logger } = o;
  const wanted = configuredMarkets(config);
  const venueMarkets = await readAndCheckMarkets(config, o.venueRest, o.wait);
  const sim = await startSim({
    host: '127.0.0.1',
    port: config.sim.port,
    seed: config.sim.seed,
    blockMs: config.sim.block_ms,
    // The shadow's chain has nobody to wait for: the signer is registered at once.
    registrationLagMs: 0,
    selectors: selectorsOf(config),
    clock,
    markets: venueMarkets.filter((m) => wanted.includes(Number(m.market_id))).map(marketDefinitionOf),
    exchange: { makers: false, oracleVolatilityPpm: 0 },
    onError: (error) => logger.error({ err: error }, 'paper venue internal error'),
  });
  const driven = new DrivenMarket(sim.runtime);
  const following = followVenue(config, driven, clock, logger);
  try {
    await following.firstBooks(config.venue.startup_deadline_ms);
  } catch (error) {
    await closeAll(following, driven, sim);
    throw error;
  }
  logger.info({ venue: config.venue.ws_url, rest: sim.restUrl, ws: sim.wsUrl }, 'paper venue started');
  let closing: Promise<void> | undefined;
  return { sim, driven, close: () => (closing ??= closeAll(following, driven, sim)) };
}

interface Following {
  readonly stop: () => Promise<void>;
  /** Resolves once every configured market has had its book from the venue; PaperFeedError after `deadlineMs`. */
  readonly firstBooks: (deadlineMs: number) => Promise<void>;
}

function followVenue(config: Config, driven: DrivenMarket, clock: Clock, logger: Logger): Following {
  const abort = new AbortController();
  const wanted = configuredMarkets(config);
  // Set only while start-up waits for the first books, so the live feed does no check after.
  let booksArrived: (() => void) | undefined;
  const haveBooks = (): boolean => wanted.every((m) => driven.hasBook(m));
  const run = recordPublicFeeds({
    wsUrl: config.venue.ws_url ?? '',
    markets: wanted,
    clock,
    signal: abort.signal,
    writer: {
      frame: (_source, raw) => {
        if (driven.driveFrame(raw, clock.now()) !== 'book' || booksArrived === undefined || !haveBooks()) return;
        booksArrived();
        booksArrived = undefined;
      },
      connected: (_source, connection) => logger.info({ connection }, 'paper: following the venue feed'),
      gap: (_source, reason) =>
        logger.warn({ reason }, 'paper: venue feed lost; the book resumes from the next snapshot'),
    },
    onConnectFailed: (error, retryInMs) =>
      logger.warn({ err: error, retryInMs }, 'paper: could not reach the venue feed; retrying'),
  }).catch((error: unknown) => logger.error({ err: error }, 'paper: the venue feed stopped'));
  const firstBooks = async (deadlineMs: number): Promise<void> => {
    if (haveBooks()) return;
    const waited = new AbortController();
    const books = new Promise<void>((resolve) => (booksArrived = resolve));
    const timeout = clock.sleep(deadlineMs, waited.signal).then(
      () => 'timeout' as const,
      () => 'booked' as const,
    );
    const outcome = await Promise.race([books.then(() => 'booked' as const), timeout]);
    waited.abort();
    booksArrived = undefined;
    if (outcome === 'timeout')
      throw new PaperFeedError(
        wanted.filter((m) => !driven.hasBook(m)),
        deadlineMs,
        config.venue.ws_url ?? '',
      );
  };
  return {
    stop: async () => {
      abort.abort();
      await run;
    },
    firstBooks,
  };
}

async function closeAll(following: Following, driven: DrivenMarket, sim: RunningSim): Promise<void> {
  await following.stop();
  driven.close();
  await sim.close();
}

import type { Clock } from '../../core/clock.js';
import type { Engine } from '../../engine/engine.js';
import type { SyncDigestSigner } from '../../protocol/digestSigner.js';
import type { SigningContext } from '../../protocol/signingContext.js';
import { createRestClient, type RestClient } from '../../venue/rest/restClient.js';
import type { RestExchangeObserver } from '../../venue/rest/restExchange.js';
import { VenueWsClient } from '../../venue/ws/venueWsClient.js';
import type { WireDecodeFailureSink } from '../../venue/wireDecodeFailure.js';
import { wsAuthenticatorFromRest } from '../../venue/ws/wsAuthenticatorFromRest.js';
import type { Config } from '../config/configSchema.js';
import type { BotService } from '../operations/control/botService.js';
import type { Logger } from '../operations/logging/createLogger.js';
import { logRestRetry } from './startup/logRestRetry.js';

/**
 * The venue's REST API as the bot calls it: its timeout configured, retries logged, timed and
 * counted, its read backoff and deadline on the bot's clock (a test's virtual time reaches them).
 */
export function botRestClient(
  restUrl: string,
  config: Config,
  logger: Logger,
  service: BotService,
  clock: Clock,
  onExchange?: RestExchangeObserver,
): RestClient {
  return service.instrumentRest(
    createRestClient({
      baseUrl: restUrl,
      timeoutMs: config.venue.request_timeout_ms,
      clock,
      onRetry: service.onRestRetry(logRestRetry(logger.child({ component: 'rest' }))),
      onDecodeFailure: service.wireDrift.sink,
      ...(onExchange === undefined ? {} : { onExchange }),
    }),
  );
}

export interface BotWsOptions {
  readonly wsUrl: string;
  readonly config: Config;
  readonly logger: Logger;
  /** Started: its markets are the ones the venue lists. */
  readonly engine: Engine;
  readonly rest: RestClient;
  readonly account: `0x${string}`;
  readonly signer: SyncDigestSigner;
  readonly context: SigningContext;
  /** The bot's clock: reconnect and auth backoff, reply timeouts and the staleness watch run on it. */
  readonly clock: Clock;
  /** Where frames the decoders refuse go (`BotService.wireDrift.sink`). */
  readonly onDecodeFailure?: WireDecodeFailureSink;
  /** Told of every frame as received (the flight recorder). */
  readonly onFrame?: (text: string) => void;
}

/** The venue's WebSocket, its private feeds authenticated with the signer (a login read over REST). */
export function botWsClient(o: BotWsOptions): VenueWsClient {
  const { engine } = o;
  return new VenueWsClient({
    url: o.wsUrl,
    knownMarketIds: () => Promise.resolve(engine.markets().map((m) => Number(m.market_id))),
    authenticator: wsAuthenticatorFromRest({ rest: o.rest, context: o.context, account: o.account, signer: o.signer }),
    logger: o.logger.child({ component: 'ws' }),
    clock: o.clock,
    // A simulator of ours (embedded, or paper's shadow) paces its blocks by `sim.block_ms`.
    ...(o.config.venue.profile === 'sim' || o.config.venue.profile === 'paper'
      ? { blockMs: o.config.sim.block_ms }
      : {}),
    ...(o.onDecodeFailure === undefined ? {} : { onDecodeFailure: o.onDecodeFailure }),
    ...(o.onFrame === undefined ? {} : { onFrame: o.onFrame }),
  });
}

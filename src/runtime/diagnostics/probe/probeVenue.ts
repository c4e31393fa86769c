import type { Address } from '../../../core/address.js';
import type { Clock } from '../../../core/clock.js';
import type { SignerLike } from '../../../protocol/digestSigner.js';
import type { RestClient } from '../../../venue/rest/restClient.js';
import { readMarkets, readVenueSigning } from '../../../venue/venueInfo.js';
import type { WsAuthenticator } from '../../../venue/ws/authenticateWs.js';
import { wsAuthenticatorFromRest } from '../../../venue/ws/wsAuthenticatorFromRest.js';
import { probeRest, type SaveSample } from './probeRest.js';
import type { ProbeRow } from './probeRow.js';
import { probeWs } from './probeWs.js';
import { REST_PROBES, restReads, type RestProbe } from './restProbes.js';
import { WS_PROBES, type WsChannelProbe } from './wsProbes.js';

/** The keys the probe reads with: the account's address, and the session key for auth_v2. */
export interface ProbeKeys {
  readonly account: Address;
  readonly signer?: SignerLike & { readonly address: Address };
}

export interface ProbeVenueOptions {
  readonly restUrl: string;
  readonly wsUrl: string;
  /** The markets to read and subscribe; empty: every market the venue lists. */
  readonly markets: readonly number[];
  readonly keys?: ProbeKeys;
  /** Why `keys` (or its signer) is missing, for the skipped rows. */
  readonly noKeysReason?: string;
  /** The bot's REST client: the signing domain, the login nonce and the signer's status for auth_v2. */
  readonly rest: RestClient;
  readonly timeoutMs: number;
  readonly listenMs: number;
  readonly clock: Clock;
  readonly saveSample: SaveSample;
  readonly signal?: AbortSignal;
  readonly restProbes?: readonly RestProbe[];
  readonly channels?: readonly WsChannelProbe[];
}

/** Every REST read, then every channel: the rows of `perpbot probe`, in print order. */
export async function probeVenue(options: ProbeVenueOptions): Promise<ProbeRow[]> {
  const markets = options.markets.length > 0 ? options.markets : await listedMarkets(options.rest, options.signal);
  const target = {
    markets,
    ...(options.keys === undefined ? {} : { account: options.keys.account }),
    ...(options.keys?.signer === undefined ? {} : { signer: options.keys.signer.address }),
  };
  const { reads, skipped } = restReads(options.restProbes ?? REST_PROBES, target);
  const restRows = await probeRest(reads, {
    baseUrl: options.restUrl,
    timeoutMs: options.timeoutMs,
    saveSample: options.saveSample,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  const skippedRows = skipped.map((s): ProbeRow => ({
    kind: 'rest',
    name: s.name,
    status: 'skipped',
    detail: options.noKeysReason ?? s.reason,
  }));
  const auth = await authenticator(options);
  const wsRows = await probeWs({
    wsUrl: options.wsUrl,
    connectTimeoutMs: options.timeoutMs,
    channels: options.channels ?? WS_PROBES,
    markets,
    listenMs: options.listenMs,
    clock: options.clock,
    saveSample: options.saveSample,
    ...('authenticator' in auth ? { auth: auth.authenticator } : { noAuthReason: auth.reason }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  return [...restRows, ...skippedRows, ...wsRows];
}

/** auth_v2 as the bot does it, or why not. Reading the signing domain is itself a departure check's input. */
async function authenticator(
  options: ProbeVenueOptions,
): Promise<{ authenticator: WsAuthenticator } | { reason: string }> {
  const keys = options.keys;
  if (keys?.signer === undefined)
    return { reason: options.noKeysReason ?? 'no session key configured (PERPBOT_SIGNER_KEY or keys.signer_key_file)' };
  try {
    const { context } = await readVenueSigning(options.rest, options.signal);
    return {
      authenticator: wsAuthenticatorFromRest({
        rest: options.rest,
        context,
        account: keys.account,
        signer: keys.signer,
      }),
    };
  } catch (error) {
    return {
      reason: `the signing domain could not be read: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

async function listedMarkets(rest: RestClient, signal: AbortSignal | undefined): Promise<number[]> {
  try {
    return (await readMarkets(rest, signal)).map((m) => Number(m.market_id));
  } catch {
    // The markets row says why; the channels then subscribe for every market.
    return [];
  }
}

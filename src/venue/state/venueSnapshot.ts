import { readAllOpenOrders } from '../rest/readAllOpenOrders.js';
import type { RestCallOptions, RestClient } from '../rest/restClient.js';
import type { OpenOrder } from '../schemas/restOrders.js';
import type { NonceState } from '../schemas/restSystem.js';
import { readVenuePosition, type VenuePosition } from './venuePosition.js';

export type VenueSnapshotReads = Pick<RestClient, 'openOrders' | 'position' | 'crossMarginBalance'>;

export interface VenueSnapshotQuery {
  readonly account: string;
  readonly markets: readonly number[];
}

export interface VenueSnapshotOptions {
  /** `limit` of each open-orders page; default the venue's maximum (readAllOpenOrders). */
  readonly pageSize?: number;
  readonly callOptions?: RestCallOptions;
}

/**
 * What the venue holds for an account in some markets, read before anything is applied: the one
 * snapshot every reconciliation (the engine's and the journal's), `perpbot status` and the exit
 * report read the venue into.
 */
export interface VenueSnapshot {
  /** The markets read. */
  readonly markets: readonly number[];
  /** Every open order of the markets read (each market a consistent snapshot), market by market. */
  readonly openOrders: readonly OpenOrder[];
  /** Each market read, flat ones included. */
  readonly positions: ReadonlyMap<number, VenuePosition>;
  /** The cross-margin balance as the venue sent it. */
  readonly balance: string;
  /** The account's nonce state (GET /v1/nonce-state), when read with it (`readVenueSnapshotWithNonces`). */
  readonly nonceState?: NonceState;
  /**
   * When the read began, on the reader's clock (ms), when the reader kept it: a snapshot shared by
   * several reconcilers is older than each of their starts, and what they journal of it is stamped
   * with when it was read.
   */
  readonly readAtMs?: number;
}

/**
 * The one reader of venue state: every page of each market's open orders (`readAllOpenOrders`:
 * accepted only when consistent, since a reader takes the list as the whole book), each market's
 * position normalised once (`normalizePosition`), and the cross-margin balance. The reads run side
 * by side: a reconnect waits on them before trading resumes.
 */
export async function readVenueSnapshot(
  rest: VenueSnapshotReads,
  query: VenueSnapshotQuery,
  options: VenueSnapshotOptions = {},
): Promise<VenueSnapshot> {
  const { account, markets } = query;
  const { callOptions } = options;
  const pages = {
    ...(options.pageSize === undefined ? {} : { pageSize: options.pageSize }),
    ...(callOptions === undefined ? {} : { callOptions }),
  };
  const [perMarket, balance] = await Promise.all([
    Promise.all(
      markets.map((marketId) =>
        Promise.all([
          readAllOpenOrders(rest, { account, marketId }, pages),
          readVenuePosition(rest, account, marketId, callOptions),
        ]),
      ),
    ),
    rest.crossMarginBalance(account, callOptions),
  ]);
  const openOrders: OpenOrder[] = [];
  const positions = new Map<number, VenuePosition>();
  for (const [open, position] of perMarket) {
    openOrders.push(...open.orders);
    positions.set(position.marketId, position);
  }
  return { markets: [...markets], openOrders, positions, balance: balance.balance };
}

/** `readVenueSnapshot` and the account's nonce state (GET /v1/nonce-state), read side by side. */
export async function readVenueSnapshotWithNonces(
  rest: VenueSnapshotReads & Pick<RestClient, 'nonceState'>,
  query: VenueSnapshotQuery,
  options: VenueSnapshotOptions = {},
): Promise<VenueSnapshot & { readonly nonceState: NonceState }> {
  // Both reads are promises before either is awaited: one that fails never leaves the other unhandled.
  const [snapshot, nonceState] = await Promise.all([
    readVenueSnapshot(rest, query, options),
    (async () => rest.nonceState(query.account, options.callOptions))(),
  ]);
  return { ...snapshot, nonceState };
}

/** Whether the snapshot read every one of `markets`. */
export function coversMarkets(snapshot: VenueSnapshot, markets: readonly number[]): boolean {
  const read = new Set(snapshot.markets);
  return markets.every((m) => read.has(m));
}

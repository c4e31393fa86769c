import { VenueWsError } from './venueWsError.js';

/**
 * Compares the filter a subscribe ack says it applied with the one requested. On the request side
 * `undefined` (or an empty list) means all markets. The spec says the ack lists the ids actually
 * applied, so "all markets" arrives in either of two forms: an empty (or absent) list, or the full
 * list of the venue's markets (`venueMarketIds`, from GET /v1/markets; a superset also counts, in
 * case a market was listed after that read). Both are accepted for an unfiltered subscription.
 *
 * Seeing all markets when a filter was asked means the parameter never reached the server
 * (`WS_FILTER_IGNORED`); the stream would silently carry the wrong markets. An exact echo of the
 * filter always passes, even a filter that names every market.
 *
 * Without `venueMarketIds` a full list cannot be told from a filter: an unfiltered subscription
 * then accepts any list, and a filtered one acked with more markets is a `WS_FILTER_MISMATCH`.
 */
export function checkSubscribeAck(
  channel: string,
  requested: readonly number[] | undefined,
  applied: readonly number[] | null | undefined,
  venueMarketIds?: readonly number[],
): VenueWsError | undefined {
  const want = normalise(requested);
  const got = normalise(applied ?? undefined);
  // An empty list of venue markets says nothing: treat it as unknown.
  const venue = venueMarketIds !== undefined && venueMarketIds.length > 0 ? venueMarketIds : undefined;
  const gotAll = got === undefined || (venue !== undefined && covers(got, venue));
  if (want === undefined) {
    if (gotAll || venue === undefined) return undefined;
    return mismatch(channel, want, got);
  }
  if (got !== undefined && sameIds(want, got)) return undefined;
  if (gotAll) {
    return new VenueWsError(
      `${channel}: the server applied all markets although markets [${want.join(', ')}] were requested`,
      {
        code: 'WS_FILTER_IGNORED',
        details: { channel, requested: want, applied: 'all' },
        hints: [
          'the market_ids parameter did not reach the server: check the subscribe frame shape (params.market_ids, numbers)',
        ],
      },
    );
  }
  return mismatch(channel, want, got);
}

function mismatch(channel: string, want: number[] | undefined, got: number[] | undefined): VenueWsError {
  return new VenueWsError(
    `${channel}: the server applied markets [${got?.join(', ') ?? 'all'}], requested [${want?.join(', ') ?? 'all'}]`,
    {
      code: 'WS_FILTER_MISMATCH',
      details: { channel, requested: want ?? 'all', applied: got ?? 'all' },
      hints: ['resubscribe; if it persists the venue changed how it applies market filters'],
    },
  );
}

function normalise(ids: readonly number[] | undefined): number[] | undefined {
  if (ids === undefined || ids.length === 0) return undefined;
  return [...new Set(ids)].sort((a, b) => a - b);
}

function sameIds(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}

/** True when every id of the venue is in `ids`. */
function covers(ids: readonly number[], venueMarketIds: readonly number[]): boolean {
  const applied = new Set(ids);
  return venueMarketIds.every((id) => applied.has(id));
}

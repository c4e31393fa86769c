import { VenueWsError } from './venueWsError.js';

/**
 * Compares the filter a subscribe ack says it applied with the one requested. `undefined` (or an
 * empty list) means all markets on both sides. Seeing all markets when a filter was asked means
 * the parameter never reached the server; the stream would silently carry the wrong markets.
 */
export function checkSubscribeAck(
  channel: string,
  requested: readonly number[] | undefined,
  applied: readonly number[] | null | undefined,
): VenueWsError | undefined {
  const want = normalise(requested);
  const got = normalise(applied ?? undefined);
  if (want === undefined && got === undefined) return undefined;
  if (want !== undefined && got === undefined) {
    return new VenueWsError(`${channel}: the server applied all markets although markets [${want.join(', ')}] were requested`, {
      code: 'WS_FILTER_IGNORED',
      details: { channel, requested: want, applied: 'all' },
      hints: ['the market_ids parameter did not reach the server: check the subscribe frame shape (params.market_ids, numbers)'],
    });
  }
  if (want !== undefined && got !== undefined && want.length === got.length && want.every((id, i) => id === got[i])) {
    return undefined;
  }
  return new VenueWsError(`${channel}: the server applied markets [${got?.join(', ') ?? 'all'}], requested [${want?.join(', ') ?? 'all'}]`, {
    code: 'WS_FILTER_MISMATCH',
    details: { channel, requested: want ?? 'all', applied: got ?? 'all' },
    hints: ['resubscribe; if it persists the venue changed how it applies market filters'],
  });
}

function normalise(ids: readonly number[] | undefined): number[] | undefined {
  if (ids === undefined || ids.length === 0) return undefined;
  return [...new Set(ids)].sort((a, b) => a - b);
}

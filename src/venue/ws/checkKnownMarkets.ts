import { VenueWsError } from './venueWsError.js';

/**
 * The venue acknowledges a market id that does not exist and then never sends anything for it,
 * so requested ids are checked against the venue's market list before subscribing.
 */
export async function checkKnownMarkets(
  channel: string,
  ids: readonly number[],
  knownMarketIds: () => Promise<readonly number[]>,
): Promise<void> {
  const known = new Set(await knownMarketIds());
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length === 0) return;
  throw new VenueWsError(`${channel}: market id(s) ${unknown.join(', ')} are not markets of this venue`, {
    code: 'WS_UNKNOWN_MARKET',
    details: { channel, unknown, known: [...known].sort((a, b) => a - b) },
    hints: ['the venue acknowledges unknown ids and then never sends anything; use an id from GET /v1/markets'],
  });
}

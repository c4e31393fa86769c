import { compareDecimals } from '../../../../core/decimal.js';
import type { JournalPosition } from '../journalTruth.js';
import type { TruthPosition } from '../venueTruth.js';
import { firstFew, type InvariantResult } from './invariant.js';

/**
 * The journal's latest position of each market is the venue's, exactly (signed decimal sizes).
 * A market the journal never wrote counts as flat there.
 */
export function positionsMatch(venue: readonly TruthPosition[], journal: readonly JournalPosition[]): InvariantResult {
  const journaled = new Map(journal.map((p) => [p.marketId, signedOf(p)]));
  const venueById = new Map(venue.map((p) => [p.marketId, p.signedSize]));
  const markets = [
    ...new Set([
      ...journaled.keys(),
      ...venue.filter((p) => compareDecimals(p.signedSize, '0') !== 0).map((p) => p.marketId),
    ]),
  ].sort((a, b) => a - b);
  const rows = markets.map((marketId) => ({
    marketId,
    journal: journaled.get(marketId) ?? '0',
    venue: venueById.get(marketId) ?? '0',
  }));
  const differ = rows.filter((r) => compareDecimals(r.journal, r.venue) !== 0);
  return {
    id: 'positions_match',
    title: 'positions, journal = venue',
    ok: differ.length === 0,
    measured: rows.length === 0 ? 'no positions' : rows.map((r) => `m${r.marketId} ${r.venue}`).join(', '),
    ...(differ.length === 0
      ? {}
      : { detail: firstFew(differ.map((r) => `market ${r.marketId}: journal ${r.journal}, venue ${r.venue}`)) }),
    data: { markets: rows, differing: differ.length },
  };
}

function signedOf(p: JournalPosition): string {
  const size = p.size.replace(/^-/, '');
  return p.side === 'sell' && compareDecimals(size, '0') !== 0 ? `-${size}` : size;
}

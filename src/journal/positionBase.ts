import { addDecimals, compareDecimals, negateDecimal } from '../core/decimal.js';
import type { Side } from '../engine/intents/intents.js';
import type { VenuePosition } from '../venue/state/venuePosition.js';
import type { Journal, PositionWrite } from './journal.js';

/** Snapshots of this source are the position base the journaled fills are counted from. */
export const BASE_POSITION_SOURCE = 'base';

/** A position as one signed decimal: a short is negative; flat is the size as given, whatever its side. */
export function signedPosition(side: Side, size: string): string {
  return side === 'sell' && compareDecimals(size, '0') !== 0 ? `-${size}` : size;
}

/**
 * The position the journal expects in a market: its base snapshot plus every fill journaled after
 * it, as a signed decimal; undefined while the market has no base.
 */
export function expectedPosition(journal: Journal, account: string, marketId: number): string | undefined {
  const base = journal.latestPosition(account, marketId, BASE_POSITION_SOURCE);
  if (base === undefined) return undefined;
  let signed = signedPosition(base.side, base.size);
  for (const fill of journal.fillsAfter(account, marketId, base.fillSeq))
    signed = addDecimals(signed, fill.side === 'sell' ? negateDecimal(fill.size) : fill.size);
  return signed;
}

/** The venue's position as the journal writes it (its margin mode as the digit the venue sent). */
export function positionWriteOf(p: VenuePosition): PositionWrite {
  return {
    marketId: p.marketId,
    side: p.side,
    size: p.size,
    ...(p.avgEntryPrice === undefined ? {} : { avgEntryPrice: p.avgEntryPrice }),
    ...(p.marginMode === undefined ? {} : { marginMode: String(p.marginMode) }),
  };
}

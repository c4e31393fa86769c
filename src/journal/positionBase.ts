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
  const count = journalCountAtRead(journal, account, marketId, Number.POSITIVE_INFINITY);
  return count?.atRead;
}

/** The journal's count of a market's position as a venue read at some moment may hold it. */
export interface CountAtRead {
  /** The base plus the fills journaled by the read's start: the venue held those when it answered. */
  readonly atRead: string;
  /**
   * The fills journaled since, each as its signed size: a read that began before the journal had
   * them may hold any of them (a live fill can reach the venue's book before the read's answer and
   * the journal after; a fill the history recovers is journaled after the read, in any order).
   */
  readonly later: readonly { readonly fillId: string; readonly signedSize: string }[];
}

/** The journal's count for a venue read begun at `readAtMs`; undefined while the market has no base. */
export function journalCountAtRead(
  journal: Journal,
  account: string,
  marketId: number,
  readAtMs: number,
): CountAtRead | undefined {
  const base = journal.latestPosition(account, marketId, BASE_POSITION_SOURCE);
  if (base === undefined) return undefined;
  let atRead = signedPosition(base.side, base.size);
  const later: { fillId: string; signedSize: string }[] = [];
  for (const fill of journal.fillsAfter(account, marketId, base.fillSeq)) {
    const signedSize = fill.side === 'sell' ? negateDecimal(fill.size) : fill.size;
    if (fill.atMs > readAtMs) later.push({ fillId: fill.fillId, signedSize });
    else atRead = addDecimals(atRead, signedSize);
  }
  return { atRead, later };
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

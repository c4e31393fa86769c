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
  const positions = explainablePositions(journal, account, marketId, Number.POSITIVE_INFINITY);
  return positions === undefined ? undefined : positions[positions.length - 1];
}

/**
 * The positions that explain a venue position read at `readAtMs`: the base plus the fills
 * journaled by then (the venue held those when it answered), then that plus each fill journaled
 * since, one at a time in journal order. A read that began before the live feed journaled a fill
 * may hold it or not (the fill can reach the venue's book before the read's answer and the journal
 * after), so any of these is the journal's count; the last is all it has. Undefined while the
 * market has no base.
 */
export function explainablePositions(
  journal: Journal,
  account: string,
  marketId: number,
  readAtMs: number,
): readonly string[] | undefined {
  const base = journal.latestPosition(account, marketId, BASE_POSITION_SOURCE);
  if (base === undefined) return undefined;
  let signed = signedPosition(base.side, base.size);
  const positions: string[] = [];
  for (const fill of journal.fillsAfter(account, marketId, base.fillSeq)) {
    if (fill.atMs > readAtMs && positions.length === 0) positions.push(signed);
    signed = addDecimals(signed, fill.side === 'sell' ? negateDecimal(fill.size) : fill.size);
    if (fill.atMs > readAtMs) positions.push(signed);
  }
  if (positions.length === 0) positions.push(signed);
  return positions;
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

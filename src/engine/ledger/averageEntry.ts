import { decimalToFixed, divideRounded, fixedToDecimal, pow10 } from '../../core/decimal.js';

/**
 * The one valuation of a position, the venue's: an average entry price, in USDC wei (18
 * decimals), the scale the venue settles its balance in. Sizes and prices are held at the same
 * scale. The venue's rules, as the simulator implements them (docs/spec-gaps/engine.md, "Ledger"):
 * - a fill that opens or adds re-averages the entry, rounded half away from zero to 1 wei;
 * - a fill that reduces keeps the entry and realises (exit − entry) × closed size, rounded toward
 *   −infinity to 1 wei; what a fill leaves past flat opens at the fill's price;
 * - unrealised PnL is (mark − entry) × signed size, rounded toward −infinity to 1 wei.
 * Booking every fill this way gives realised − fees equal to the venue's balance change to the wei.
 */
export const WAD_DECIMALS = 18;
const WAD = pow10(WAD_DECIMALS);

/** A market's open position: signed size (long positive) and the average entry, both at 18 decimals. */
export interface AverageEntry {
  readonly size: bigint;
  readonly entry: bigint;
}

export const FLAT: AverageEntry = Object.freeze({ size: 0n, entry: 0n });

/** A fill's effect: the position after it and the PnL it realised (before fees), wei. */
export interface FillEffect {
  readonly position: AverageEntry;
  readonly realisedWei: bigint;
}

/** Applies one fill of `signedSize` (buy positive) at `price` (both at 18 decimals). */
export function applyFill(position: AverageEntry, signedSize: bigint, price: bigint): FillEffect {
  const { size, entry } = position;
  const next = size + signedSize;
  if (size === 0n || size > 0n === signedSize > 0n) {
    const averaged = divideRounded(entry * abs(size) + price * abs(signedSize), abs(next), 'nearest');
    return { position: { size: next, entry: averaged }, realisedWei: 0n };
  }
  const closed = abs(signedSize) < abs(size) ? abs(signedSize) : abs(size);
  const direction = size > 0n ? 1n : -1n;
  const realisedWei = divideRounded((price - entry) * direction * closed, WAD, 'down');
  if (next === 0n) return { position: FLAT, realisedWei };
  const flipped = next > 0n !== size > 0n;
  return { position: { size: next, entry: flipped ? price : entry }, realisedWei };
}

/** (mark − entry) × signed size in wei, rounded toward −infinity; 0 when flat. */
export function unrealisedWei(position: AverageEntry, mark: bigint): bigint {
  if (position.size === 0n) return 0n;
  return divideRounded((mark - position.entry) * position.size, WAD, 'down');
}

/** A decimal at 18 decimals, exact: a fill's price, size or fee with more digits is refused (InvalidValueError). */
export function toWad(text: string, field: string): bigint {
  return decimalToFixed(text, WAD_DECIMALS, field);
}

/**
 * A mark at 18 decimals. The oracle sends marks as integer wei, so a finer mark does not come from
 * the venue; one given by hand is rounded half away from zero to the venue's 1 wei, not refused, so
 * a valuation never throws on a mark.
 */
export function markToWad(text: string): bigint {
  return decimalToFixed(text, WAD_DECIMALS, 'mark price', 'nearest');
}

/** Wei as a canonical decimal string ("1.5", "-0.000001", "0"). */
export function fromWad(wei: bigint): string {
  return fixedToDecimal(wei, WAD_DECIMALS);
}

/**
 * Unrealised PnL of a position given as decimals (a venue's position: signed size, average entry
 * and mark), valued as the ledger values its own: what every view of a venue position shows.
 */
export function unrealisedPnlOf(signedSize: string, avgEntryPrice: string, markPrice: string): string {
  // The venue's entries are whole wei; a finer one (given by hand) is rounded as a mark is.
  const entry = decimalToFixed(avgEntryPrice, WAD_DECIMALS, 'average entry price', 'nearest');
  const position = { size: toWad(signedSize, 'position size'), entry };
  return fromWad(unrealisedWei(position, markToWad(markPrice)));
}

function abs(value: bigint): bigint {
  return value < 0n ? -value : value;
}

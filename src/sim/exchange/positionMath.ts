import { divideRounded } from '../../core/decimal.js';
import { notionalAtPriceWei, type MarketSpec } from './markets.js';

/**
 * Position arithmetic, pure. Size is signed steps (short < 0). The average entry price is kept in
 * wei (18 decimals): an increase re-averages and rounds half away from zero to 1 wei of price;
 * reductions keep the average. Realised PnL of a reduction is (exit − average) × closed size,
 * rounded toward −infinity to 1 USD wei (exact whenever the average is, e.g. single-price entries).
 */
export interface PositionCore {
  readonly sizeSteps: bigint;
  readonly avgEntryWei: bigint;
}

export interface FillOutcome extends PositionCore {
  /** PnL realised by this fill, USD wei, before fees. */
  readonly realizedWei: bigint;
}

export function applyFillToPosition(
  market: MarketSpec,
  position: PositionCore,
  side: 0 | 1,
  steps: bigint,
  priceWei: bigint,
): FillOutcome {
  const signed = side === 0 ? steps : -steps;
  const size = position.sizeSteps;
  const next = size + signed;
  if (size === 0n || size > 0n === signed > 0n) {
    const absSize = abs(size);
    const absNext = abs(next);
    const avg = divideRounded(position.avgEntryWei * absSize + priceWei * steps, absNext, 'nearest');
    return { sizeSteps: next, avgEntryWei: avg, realizedWei: 0n };
  }
  const closing = steps < abs(size) ? steps : abs(size);
  const direction = size > 0n ? 1n : -1n;
  const realizedWei = notionalAtPriceWei(market, (priceWei - position.avgEntryWei) * direction, closing);
  if (next === 0n) return { sizeSteps: 0n, avgEntryWei: 0n, realizedWei };
  const flipped = next > 0n !== size > 0n;
  return { sizeSteps: next, avgEntryWei: flipped ? priceWei : position.avgEntryWei, realizedWei };
}

/** (mark − average) × signed size, USD wei, rounded toward −infinity. */
export function unrealizedPnlWei(market: MarketSpec, position: PositionCore, markWei: bigint): bigint {
  if (position.sizeSteps === 0n) return 0n;
  return notionalAtPriceWei(market, markWei - position.avgEntryWei, position.sizeSteps);
}

/** How many steps of `side` would reduce (not increase or flip) the position. */
export function reducibleSteps(sizeSteps: bigint, side: 0 | 1): bigint {
  if (side === 1 && sizeSteps > 0n) return sizeSteps;
  if (side === 0 && sizeSteps < 0n) return -sizeSteps;
  return 0n;
}

export function abs(value: bigint): bigint {
  return value < 0n ? -value : value;
}

import { divideRounded, pow10 } from '../../core/decimal.js';
import { notionalAtPriceWei, type MarketSpec } from './markets.js';
import { abs } from './positionMath.js';

/** Maintenance margin of a position: |notional at the mark| × maintenance_margin_factor, rounded up. */
export function maintenanceMarginWei(market: MarketSpec, sizeSteps: bigint, markWei: bigint): bigint {
  const notional = abs(notionalAtPriceWei(market, markWei, sizeSteps));
  return divideRounded(notional * market.maintenanceFactor.units, pow10(market.maintenanceFactor.scale), 'up');
}

/**
 * The mark at which this position's pool would fall to its maintenance margin, everything else
 * held still: solves E + q(p − A) = M + |q|·p·f for p, where E and M are the pool's equity and
 * maintenance margin without this position, q the signed size, A the average entry, f the
 * maintenance factor. Rounded to the nearest wei; undefined when no positive price qualifies
 * (e.g. a long backed by more than its notional).
 */
export function liquidationPriceWei(
  market: MarketSpec,
  sizeSteps: bigint,
  avgEntryWei: bigint,
  otherEquityWei: bigint,
  otherMaintenanceWei: bigint,
): bigint | undefined {
  if (sizeSteps === 0n) return undefined;
  const factorScale = pow10(market.maintenanceFactor.scale);
  const factorUnits = market.maintenanceFactor.units;
  const stepUnits = market.stepSize.units;
  const numerator =
    (otherMaintenanceWei - otherEquityWei) * market.sizeDivisor * factorScale +
    sizeSteps * stepUnits * avgEntryWei * factorScale;
  const denominator = sizeSteps * stepUnits * (sizeSteps > 0n ? factorScale - factorUnits : factorScale + factorUnits);
  if (denominator === 0n) return undefined;
  const price = divideRounded(numerator, denominator, 'nearest');
  return price > 0n ? price : undefined;
}

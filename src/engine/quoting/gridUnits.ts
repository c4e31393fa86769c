import { BoundedMap } from '../../core/boundedMap.js';
import { countUnits, type Rounding } from '../../core/decimal.js';

/** Distinct values remembered per grid unit and rounding: a market's prices near the mark, its sizes. */
const VALUES_KEPT = 4096;

/** By rounding ('exact' when none is named), then unit, then value: undefined is remembered as null. */
const known = new Map<Rounding | 'exact', Map<string, BoundedMap<string, bigint | null>>>();

/**
 * Whole units of the grid in a decimal (`countUnits`), or undefined when it is not one (or it is off
 * the grid and no rounding is named). Remembered: a quote target counts the same prices and sizes
 * in ticks and steps on every mark, for each wanted and each live order, and so does the uptime
 * figure on every order event; parsing them again each time was a hot spot of a replay.
 */
export function gridUnits(value: string, unit: string, rounding: Rounding | undefined): bigint | undefined {
  const byValue = valuesOf(rounding ?? 'exact', unit);
  const remembered = byValue.get(value);
  if (remembered !== undefined) return remembered ?? undefined;
  let units: bigint | null;
  try {
    units = countUnits(value, unit, 'value', rounding);
  } catch {
    units = null;
  }
  byValue.set(value, units);
  return units ?? undefined;
}

function valuesOf(rounding: Rounding | 'exact', unit: string): BoundedMap<string, bigint | null> {
  let byUnit = known.get(rounding);
  if (byUnit === undefined) {
    byUnit = new Map();
    known.set(rounding, byUnit);
  }
  let byValue = byUnit.get(unit);
  if (byValue === undefined) {
    // Units are a market's tick and step: few, and never forgotten while the process runs.
    byValue = new BoundedMap(VALUES_KEPT);
    byUnit.set(unit, byValue);
  }
  return byValue;
}

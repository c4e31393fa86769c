import { fixedToDecimal, parseDecimal, pow10 } from '../../core/decimal.js';
import { ConfigError } from '../config/configError.js';
import type { ParamSpace, ParamValue } from '../config/sweepSchema.js';

/**
 * One param's values as a finite list read by index: a list as written, or a range's points from
 * `min` to `max` in steps of `step`, computed exactly (0.1 + 0.2 is 0.3 here) and given back as
 * numbers when the range was written in numbers, as decimal strings when it was quoted.
 */
export interface ParamValues {
  readonly size: number;
  at(index: number): ParamValue;
}

/** A range without `step` is drawn in steps of this (random samples only). */
const DEFAULT_STEP = '0.0001';

export function paramValues(name: string, space: ParamSpace, needStep: boolean): ParamValues {
  if (isList(space)) return { size: space.length, at: (i) => space[i]! };
  const path = `sweep.params.${name}`;
  if (space.step === undefined && needStep)
    throw ConfigError.at(path, 'a range in a grid needs a step (the grid tries every point)', [
      `add step, e.g. { min: ${String(space.min)}, max: ${String(space.max)}, step: ... }`,
      'or draw a random sample instead: sweep.sample: { count: 32 }',
    ]);
  const min = exact(space.min, `${path}.min`);
  const max = exact(space.max, `${path}.max`);
  const step = exact(space.step ?? DEFAULT_STEP, `${path}.step`);
  const scale = Math.max(min.scale, max.scale, step.scale);
  const [lo, hi, by] = [min, max, step].map((v) => v.units * pow10(scale - v.scale)) as [bigint, bigint, bigint];
  if (by <= 0n) throw ConfigError.at(`${path}.step`, `expected a positive step, got ${String(space.step)}`);
  if (hi < lo) throw ConfigError.at(path, `expected min at most max, got ${String(space.min)} > ${String(space.max)}`);
  const size = (hi - lo) / by + 1n;
  if (size > BigInt(Number.MAX_SAFE_INTEGER)) throw ConfigError.at(path, 'the range has too many points');
  const asNumbers = typeof space.min === 'number';
  return {
    size: Number(size),
    at: (i) => {
      const text = fixedToDecimal(lo + BigInt(i) * by, scale);
      return asNumbers ? Number(text) : text;
    },
  };
}

/** A bound as an exact decimal: numbers by their shortest text, so 0.1 is 0.1 and not its float. */
function exact(value: number | string, path: string): { units: bigint; scale: number } {
  const text = typeof value === 'number' ? String(value) : value;
  if (!/^-?\d+(\.\d+)?$/.test(text))
    throw ConfigError.at(path, `expected a plain decimal (no exponent), got ${text}`, [
      'write very small or large bounds as quoted decimals, e.g. "0.0000001"',
    ]);
  return parseDecimal(text, path);
}

/** `Array.isArray` does not narrow a read-only array out of a union. */
function isList(space: ParamSpace): space is readonly ParamValue[] {
  return Array.isArray(space);
}

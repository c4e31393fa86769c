import { ConfigError } from '../config/configError.js';
import type { ParamValue, SweepSection } from '../config/sweepSchema.js';
import { paramValues, type ParamValues } from './paramSpace.js';

/** One set of params the sweep replays: `id` names it in the study, the page and best.yaml. */
export interface Variant {
  readonly id: string;
  readonly params: Readonly<Record<string, ParamValue>>;
}

/** The most variants one sweep runs (a grid past it is drawn from with `sample:` instead). */
export const MAX_VARIANTS = 10_000;

/**
 * The variants of a sweep, the same list every time for the same section (the study, a resume,
 * each shard and the merge all rely on it): the whole grid, first param varying slowest, or a
 * seeded random sample of distinct points drawn from it in draw order.
 */
export function sweepVariants(section: Pick<SweepSection, 'params' | 'sample'>): Variant[] {
  const names = Object.keys(section.params);
  const spaces = names.map((name) => paramValues(name, section.params[name]!, section.sample === undefined));
  const total = spaces.reduce((n, s) => n * s.size, 1);
  const points =
    section.sample === undefined
      ? gridPoints(spaces, total)
      : samplePoints(spaces, total, section.sample.count, section.sample.seed);
  const width = String(points.length).length;
  return points.map((point, i) => ({
    id: `v${String(i + 1).padStart(width, '0')}`,
    params: Object.fromEntries(names.map((name, k) => [name, spaces[k]!.at(point[k]!)])),
  }));
}

function gridPoints(spaces: readonly ParamValues[], total: number): number[][] {
  if (total > MAX_VARIANTS)
    throw ConfigError.at('sweep.params', `the grid has ${total} variants, more than ${MAX_VARIANTS}`, [
      'narrow the ranges or lists, or draw a random sample: sweep.sample: { count: 64 }',
    ]);
  const out: number[][] = [];
  for (let i = 0; i < total; i++) out.push(pointAt(spaces, i));
  return out;
}

/** The grid's i-th point, the last param varying fastest. */
function pointAt(spaces: readonly ParamValues[], index: number): number[] {
  const point = new Array<number>(spaces.length);
  let rest = index;
  for (let k = spaces.length - 1; k >= 0; k--) {
    const size = spaces[k]!.size;
    point[k] = rest % size;
    rest = Math.floor(rest / size);
  }
  return point;
}

/**
 * `count` distinct points drawn uniformly (each param's index on its own), or the whole grid in
 * grid order when it has no more points than that.
 */
function samplePoints(spaces: readonly ParamValues[], total: number, count: number, seed: number): number[][] {
  if (total <= count) return gridPoints(spaces, total);
  const random = mulberry32(seed);
  const seen = new Set<string>();
  const out: number[][] = [];
  // Distinct draws: with count < total a repeat is only a retry; the cap stops a space near count.
  for (let tries = 0; out.length < count && tries < count * 50; tries++) {
    const point = spaces.map((s) => Math.floor(random() * s.size));
    const key = point.join(',');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(point);
  }
  return out;
}

/** A small seeded generator (the same draws on every machine and every run). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

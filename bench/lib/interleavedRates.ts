import { measureRate, median } from './measureRate.js';

/**
 * Rates of several bodies measured in alternation, one short round each per pass, medians over
 * the passes. On a shared machine a burst of load from elsewhere then falls on a figure and its
 * baseline alike, instead of on whichever happened to be measured at that moment.
 */
export async function interleavedRates<K extends string>(
  bodies: Readonly<Record<K, (i: number) => unknown>>,
  options: { readonly passes?: number; readonly roundMs?: number; readonly warmupMs?: number } = {},
): Promise<Record<K, number>> {
  const passes = options.passes ?? 7;
  const roundMs = options.roundMs ?? 300;
  const warmupMs = options.warmupMs ?? 300;
  const keys = Object.keys(bodies) as K[];
  const samples = new Map<K, number[]>(keys.map((k) => [k, []]));
  for (const k of keys)
    await measureRate(bodies[k], { rounds: 1, roundMs: warmupMs / 3, warmupMs: (2 * warmupMs) / 3 });
  for (let p = 0; p < passes; p++) {
    for (const k of keys) samples.get(k)!.push(await measureRate(bodies[k], { rounds: 1, roundMs, warmupMs: 0 }));
  }
  return Object.fromEntries(keys.map((k) => [k, median(samples.get(k)!)])) as Record<K, number>;
}

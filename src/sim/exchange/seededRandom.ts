/**
 * mulberry32 (Tommy Ettinger's 32-bit generator): tiny, fast, and well known, so a run can be
 * reproduced from its seed alone. Integer outputs only; money never sees a float.
 */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A uint32, uniform. */
  nextUint32(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** Uniform integer in [0, bound); rejection sampling so small bounds carry no modulo bias. */
  below(bound: number): number {
    if (!Number.isSafeInteger(bound) || bound < 1 || bound > 0x1_0000_0000) {
      throw new RangeError(`SeededRandom.below: bound must be an integer in 1..2^32, got ${bound}`);
    }
    const limit = 0x1_0000_0000 - (0x1_0000_0000 % bound);
    for (;;) {
      const x = this.nextUint32();
      if (x < limit) return x % bound;
    }
  }

  /** Uniform integer in [min, max]. */
  between(min: number, max: number): number {
    return min + this.below(max - min + 1);
  }

  /** True with probability percent/100. */
  chancePercent(percent: number): boolean {
    return this.below(100) < percent;
  }
}

/**
 * Derives an independent stream seed from a base seed and labels, so the oracle of market 2 does
 * not shift when makers or other markets draw more numbers. FNV-1a over the labels, then a
 * splitmix32-style finaliser.
 */
export function deriveSeed(seed: number, ...labels: readonly (string | number)[]): number {
  let h = (seed ^ 0x811c9dc5) >>> 0;
  for (const label of labels) {
    for (const ch of `${String(label)}|`) {
      h ^= ch.charCodeAt(0);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
  }
  h = Math.imul(h ^ (h >>> 16), 0x21f0aaad) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x735a2d97) >>> 0;
  return (h ^ (h >>> 15)) >>> 0;
}

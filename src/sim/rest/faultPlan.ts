import type { SimFaults } from '../simContext.js';

export type FaultOutcome = 'none' | 'fail-before' | 'fail-after';

export interface FaultPlan {
  readonly delayMs: number;
  readonly outcome: FaultOutcome;
}

/**
 * Decides, per request, the added delay and whether it fails with a 5xx, and if so whether
 * before or after the action runs. Pure: `random` yields uniform numbers in [0, 1).
 */
export function planFault(faults: SimFaults, random: () => number): FaultPlan {
  const delayMs = faults.latencyMs + (faults.jitterMs > 0 ? Math.floor(random() * (faults.jitterMs + 1)) : 0);
  if (faults.errorRate <= 0 || random() >= faults.errorRate) return { delayMs, outcome: 'none' };
  return { delayMs, outcome: random() < faults.errorAfterActionShare ? 'fail-after' : 'fail-before' };
}

/** mulberry32: a small seeded generator, so a seeded run injects the same faults. */
export function seededUniform(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

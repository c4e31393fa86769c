import { describe, expect, it } from 'vitest';
import { planFault, seededUniform } from '../../src/sim/rest/faultPlan.js';
import { NO_FAULTS } from '../../src/sim/simContext.js';

function sequence(...values: number[]): () => number {
  let i = 0;
  return () => values[i++] ?? 0;
}

describe('planFault', () => {
  it('adds nothing when faults are off', () => {
    expect(planFault(NO_FAULTS, sequence(0))).toEqual({ delayMs: 0, outcome: 'none' });
  });

  it('adds latency plus jitter within 0..jitterMs', () => {
    const faults = { ...NO_FAULTS, latencyMs: 100, jitterMs: 9 };
    expect(planFault(faults, sequence(0)).delayMs).toBe(100);
    expect(planFault(faults, sequence(0.999)).delayMs).toBe(109);
  });

  it('fails a share of requests, before or after the action by the after-share', () => {
    const faults = { ...NO_FAULTS, errorRate: 0.5, errorAfterActionShare: 0.3 };
    expect(planFault(faults, sequence(0.6)).outcome).toBe('none');
    expect(planFault(faults, sequence(0.1, 0.2)).outcome).toBe('fail-after');
    expect(planFault(faults, sequence(0.1, 0.4)).outcome).toBe('fail-before');
  });
});

describe('seededUniform', () => {
  it('repeats for a seed and stays in [0, 1)', () => {
    const a = seededUniform(7);
    const b = seededUniform(7);
    const values = Array.from({ length: 100 }, () => a());
    expect(values).toEqual(Array.from({ length: 100 }, () => b()));
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true);
    expect(new Set(values).size).toBeGreaterThan(95);
  });
});

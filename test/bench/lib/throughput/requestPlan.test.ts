import { describe, expect, it } from 'vitest';
import { nextNonce, planPairs } from '../../../../bench/lib/throughput/requestPlan.js';

describe('planPairs', () => {
  it('sends each cancel `lag` places after its own place and ends with the cancels still owed', () => {
    const plan = planPairs(4, 2, { anchor: 5n, bit: 0 });
    expect(plan.requests.map((r) => `${r.kind[0]}${r.pair}`)).toEqual(['p0', 'p1', 'p2', 'c0', 'p3', 'c1', 'c2', 'c3']);
  });

  it('gives every request the next nonce in list order and rolls to the next anchor after bit 207', () => {
    const plan = planPairs(2, 0, { anchor: 9n, bit: 206 });
    expect(plan.requests.map((r) => [r.kind, r.nonce.anchor, r.nonce.bit])).toEqual([
      ['place', 9n, 206],
      ['cancel', 9n, 207],
      ['place', 10n, 0],
      ['cancel', 10n, 1],
    ]);
    expect(plan.next).toEqual({ anchor: 10n, bit: 2 });
  });

  it('cancels every pair exactly once when the lag exceeds the pairs', () => {
    const plan = planPairs(2, 5, { anchor: 1n, bit: 0 });
    expect(plan.requests.map((r) => `${r.kind[0]}${r.pair}`)).toEqual(['p0', 'p1', 'c0', 'c1']);
  });

  it('nextNonce stays in the anchor below bit 207', () => {
    expect(nextNonce({ anchor: 3n, bit: 0 })).toEqual({ anchor: 3n, bit: 1 });
    expect(nextNonce({ anchor: 3n, bit: 207 })).toEqual({ anchor: 4n, bit: 0 });
  });
});

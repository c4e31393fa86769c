import { describe, expect, it } from 'vitest';
import { seededTxHash } from '../../../src/sim/chain/txHashes.js';

describe('seededTxHash', () => {
  it('is 32 bytes of lowercase hex, the same for the same seed and counter', () => {
    expect(seededTxHash(7, 1)).toMatch(/^0x[0-9a-f]{64}$/);
    expect(seededTxHash(7, 1)).toBe(seededTxHash(7, 1));
  });

  it('differs between seeds and between counters (beyond 32 bits too)', () => {
    expect(seededTxHash(7, 1)).not.toBe(seededTxHash(8, 1));
    expect(seededTxHash(7, 1)).not.toBe(seededTxHash(7, 2 ** 32 + 1));
  });

  it('never repeats within a run: 200,000 consecutive transactions, all distinct', () => {
    const seen = new Set<string>();
    for (let counter = 1; counter <= 200_000; counter++) seen.add(seededTxHash(12345, counter));
    expect(seen.size).toBe(200_000);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OracleBlockGaps } from '../../../src/venue/ws/oracleBlockGaps.js';

describe('OracleBlockGaps', () => {
  it('reports the blocks between two frames that do not follow each other, from the arrival of the earlier one', () => {
    const gaps = new OracleBlockGaps();
    expect(gaps.note(100, 1_000)).toBeUndefined();
    expect(gaps.note(101, 1_250)).toBeUndefined();
    expect(gaps.note(105, 2_300)).toEqual({ sinceMs: 1_250, firstMissingBlock: 102, lastMissingBlock: 104 });
    expect(gaps.note(106, 2_550)).toBeUndefined();
  });

  it('takes a repeated or older block as no gap, and does not move back to it', () => {
    const gaps = new OracleBlockGaps();
    gaps.note(10, 0);
    expect(gaps.note(10, 5)).toBeUndefined();
    expect(gaps.note(8, 6)).toBeUndefined();
    expect(gaps.note(11, 7)).toBeUndefined();
    expect(gaps.note(13, 9)).toEqual({ sinceMs: 7, firstMissingBlock: 12, lastMissingBlock: 12 });
  });

  it('starts afresh on a new connection: the first frame after a reset follows nothing', () => {
    const gaps = new OracleBlockGaps();
    gaps.note(10, 0);
    gaps.reset();
    expect(gaps.note(50, 100)).toBeUndefined();
    expect(gaps.note(51, 350)).toBeUndefined();
  });

  it('over any sequence, reports exactly the blocks above the highest seen that were skipped', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 60 }), { minLength: 1, maxLength: 40 }), (blocks) => {
        const gaps = new OracleBlockGaps();
        const missing = new Set<number>();
        blocks.forEach((block, i) => {
          const lost = gaps.note(block, i);
          for (let b = lost?.firstMissingBlock ?? 1; b <= (lost?.lastMissingBlock ?? 0); b++) missing.add(b);
        });
        const highest: number[] = [];
        for (const block of blocks)
          if (highest.length === 0 || block > highest[highest.length - 1]!) highest.push(block);
        const expected = new Set<number>();
        for (let i = 1; i < highest.length; i++)
          for (let b = highest[i - 1]! + 1; b < highest[i]!; b++) expected.add(b);
        expect([...missing].sort((a, b) => a - b)).toEqual([...expected].sort((a, b) => a - b));
      }),
    );
  });
});

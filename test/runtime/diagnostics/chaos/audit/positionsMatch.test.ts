import { describe, expect, it } from 'vitest';
import { positionsMatch } from '../../../../../src/runtime/diagnostics/chaos/audit/positionsMatch.js';

describe('positionsMatch', () => {
  it('holds when the latest journaled position of each market equals the venue exactly, short and flat included', () => {
    const result = positionsMatch(
      [
        { marketId: 1, signedSize: '-0.0018' },
        { marketId: 2, signedSize: '0' },
        { marketId: 3, signedSize: '0' },
      ],
      [
        { marketId: 1, side: 'sell', size: '0.00180', atMs: 1 },
        { marketId: 2, side: 'buy', size: '0', atMs: 1 },
      ],
    );
    expect(result.ok).toBe(true);
    expect(result.measured).toBe('m1 -0.0018, m2 0');
  });

  it('fails on a side or size that differs, and on a venue position the journal never wrote', () => {
    const wrongSide = positionsMatch(
      [{ marketId: 1, signedSize: '-0.001' }],
      [{ marketId: 1, side: 'buy', size: '0.001', atMs: 1 }],
    );
    expect(wrongSide.ok).toBe(false);
    expect(wrongSide.detail).toBe('market 1: journal 0.001, venue -0.001');
    const unseen = positionsMatch([{ marketId: 2, signedSize: '0.5' }], []);
    expect(unseen.ok).toBe(false);
    expect(unseen.detail).toBe('market 2: journal 0, venue 0.5');
  });
});

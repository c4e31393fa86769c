import { describe, expect, it } from 'vitest';
import { attributeFills, MAX_ATTRIBUTION_CANDIDATES } from '../../src/journal/fillAttribution.js';

describe('attributeFills', () => {
  const bid = { key: 'bid', signedRemainder: 2n };
  const ask = { key: 'ask', signedRemainder: -2n };
  const big = { key: 'big', signedRemainder: 5n };

  it.each([
    { move: 2n, filled: ['bid'], notFilled: ['big'] },
    { move: 7n, filled: ['bid', 'big'], notFilled: [] },
    { move: 0n, filled: [], notFilled: ['bid', 'big'] },
  ])('names the only choice that explains a move of $move', ({ move, filled, notFilled }) => {
    expect(attributeFills([bid, big], move)).toEqual({ kind: 'unique', filled, notFilled });
  });

  it('says none when no choice explains the move (a partial fill, another client)', () => {
    expect(attributeFills([bid, big], 1n)).toEqual({ kind: 'none' });
  });

  it('refuses to pick between a bid and an ask that cancel out', () => {
    expect(attributeFills([bid, ask], 0n)).toEqual({ kind: 'ambiguous', solutions: 2 });
  });

  it('does not search beyond the candidate limit', () => {
    const many = Array.from({ length: MAX_ATTRIBUTION_CANDIDATES + 1 }, (_, i) => ({
      key: String(i),
      signedRemainder: 1n << BigInt(i),
    }));
    expect(attributeFills(many, 1n).kind).toBe('ambiguous');
    expect(attributeFills(many.slice(1), 2n)).toMatchObject({ kind: 'unique', filled: ['1'] });
  });
});

describe('attributeFills with many orders of one side', () => {
  const bids = Array.from({ length: 100 }, (_, i) => ({ key: `b${i}`, signedRemainder: 15n }));

  it('knows none filled when the position did not move', () => {
    expect(attributeFills(bids, 0n)).toMatchObject({ kind: 'unique', filled: [] });
  });

  it('knows all filled when the position moved by all of them', () => {
    expect(attributeFills(bids, 1500n)).toMatchObject({ kind: 'unique', notFilled: [] });
  });

  it('does not guess which of many equal bids filled', () => {
    expect(attributeFills(bids, 15n).kind).toBe('ambiguous');
  });
});

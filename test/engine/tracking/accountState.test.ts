import { describe, expect, it } from 'vitest';
import { countIn, EMPTY_ACCOUNT_STATE, marginModeOf, openPosition } from '../../../src/engine/tracking/accountState.js';

describe('account state readers', () => {
  it.each([
    ['0', undefined],
    ['0.000', undefined],
    ['0.001', { side: 'sell', size: '0.001' }],
  ])('a position of size %s is open: %o', (size, expected) => {
    const state = { ...EMPTY_ACCOUNT_STATE, positions: new Map([[1, { side: 'sell' as const, size }]]) };
    expect(openPosition(state, 1)).toEqual(expected);
    expect(openPosition(state, 2)).toBeUndefined();
  });

  it('defaults the margin mode to cross and sums counters', () => {
    const state = {
      ...EMPTY_ACCOUNT_STATE,
      marginModes: new Map([[2, 'isolated' as const]]),
      openOrders: new Map([
        [1, 2],
        [3, 4],
      ]),
    };
    expect(marginModeOf(state, 1)).toBe('cross');
    expect(marginModeOf(state, 2)).toBe('isolated');
    expect(countIn(state.openOrders)).toBe(6);
    expect(countIn(state.openOrders, 3)).toBe(4);
    expect(countIn(state.openOrders, 9)).toBe(0);
  });
});

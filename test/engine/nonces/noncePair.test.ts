import { describe, expect, it } from 'vitest';
import {
  compareNoncePairs,
  decodeNoncePair,
  encodeNoncePair,
  parseNonceState,
} from '../../../src/engine/nonces/noncePair.js';

describe('nonce pairs and the nonce-state read', () => {
  it.each([
    [
      { nonce_anchor: '12', current_bitmap_index: 3, bitmap: '7' },
      { anchor: 12n, bitmap: 7n },
    ],
    [
      { nonce_anchor: '281474976710655', current_bitmap_index: 0, bitmap: '0x8000' },
      { anchor: (1n << 48n) - 1n, bitmap: 0x8000n },
    ],
    [
      { nonce_anchor: '0', bitmap: '' },
      { anchor: 0n, bitmap: 0n },
    ],
  ])('parses %o', (wire, parsed) => {
    expect(parseNonceState(wire)).toEqual(parsed);
  });

  it.each([
    [{ nonce_anchor: '281474976710656', bitmap: '0' }, /nonce_anchor.*uint48/],
    [{ nonce_anchor: '-1', bitmap: '0' }, /nonce_anchor/],
    [{ nonce_anchor: '1', bitmap: 'zz' }, /bitmap/],
    [{ nonce_anchor: '1', current_bitmap_index: 256, bitmap: '0' }, /current_bitmap_index/],
  ])('refuses %o', (wire, message) => {
    expect(() => parseNonceState(wire)).toThrow(message);
  });

  it('round-trips the high-water pair through JSON and refuses out-of-range pairs', () => {
    const pair = { anchor: 123456789012n, bit: 207 };
    expect(decodeNoncePair(JSON.parse(JSON.stringify(encodeNoncePair(pair))))).toEqual(pair);
    expect(() => decodeNoncePair({ anchor: '1', bit: 208 })).toThrow(/0 to 207/);
    expect(() => decodeNoncePair({ anchor: 1, bit: 0 })).toThrow(/anchor/);
    expect(() => decodeNoncePair(null)).toThrow(/nonce pair/);
  });

  it('orders pairs by anchor, then bit', () => {
    expect(compareNoncePairs({ anchor: 2n, bit: 0 }, { anchor: 1n, bit: 207 })).toBe(1);
    expect(compareNoncePairs({ anchor: 2n, bit: 3 }, { anchor: 2n, bit: 4 })).toBe(-1);
    expect(compareNoncePairs({ anchor: 2n, bit: 3 }, { anchor: 2n, bit: 3 })).toBe(0);
  });
});

import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { checksumAddress, isHexAddress } from '../../src/core/checksumAddress.js';

/** A deterministic stream of 20-byte addresses (no Math.random: a failure must replay). */
function* addresses(count: number): Generator<string> {
  let state = 0x9e3779b97f4a7c15n;
  for (let i = 0; i < count; i += 1) {
    let hex = '';
    while (hex.length < 40) {
      state = (state * 6364136223846793005n + 1442695040888963407n) & ((1n << 64n) - 1n);
      hex += (state >> 32n).toString(16).padStart(8, '0');
    }
    yield `0x${hex.slice(0, 40)}`;
  }
}

describe('checksumAddress (EIP-55)', () => {
  it("equals viem's getAddress on a thousand addresses, from lower- and upper-case input", () => {
    for (const address of addresses(1000)) {
      const expected = getAddress(address);
      expect(checksumAddress(address)).toBe(expected);
      expect(checksumAddress(`0x${address.slice(2).toUpperCase()}`)).toBe(expected);
    }
  });

  it("gives EIP-55's own examples", () => {
    for (const address of [
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
      '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
    ])
      expect(checksumAddress(address.toLowerCase())).toBe(address);
  });

  it('refuses what is not 0x and 40 hex digits, naming the value', () => {
    for (const bad of [
      '',
      '0x',
      '5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed00',
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe',
      '0xg'.padEnd(42, '0'),
    ]) {
      expect(isHexAddress(bad)).toBe(false);
      expect(() => checksumAddress(bad)).toThrow(JSON.stringify(bad));
    }
  });
});

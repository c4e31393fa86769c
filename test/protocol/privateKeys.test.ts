import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { addressOfPrivateKey, newPrivateKey } from '../../src/protocol/privateKeys.js';

describe('private keys', () => {
  it("addressOfPrivateKey equals viem's privateKeyToAddress on two hundred keys", () => {
    for (let i = 0; i < 200; i += 1) {
      const key = generatePrivateKey();
      expect(addressOfPrivateKey(key)).toBe(privateKeyToAddress(key));
    }
  });

  it('gives the well-known address of private key 1', () => {
    expect(addressOfPrivateKey(`0x${'1'.padStart(64, '0')}`)).toBe('0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf');
  });

  it('makes distinct 32-byte keys with a valid address each', () => {
    const keys = new Set(Array.from({ length: 50 }, () => newPrivateKey()));
    expect(keys.size).toBe(50);
    for (const key of keys) {
      expect(key).toMatch(/^0x[0-9a-f]{64}$/);
      expect(addressOfPrivateKey(key)).toBe(privateKeyToAddress(key));
    }
  });

  it('refuses a key out of range or malformed, without quoting it', () => {
    for (const bad of [`0x${'0'.repeat(64)}`, `0x${'f'.repeat(64)}`, `0x${'ab'.repeat(31)}`, `0x${'zz'.repeat(32)}`]) {
      let message = '';
      try {
        addressOfPrivateKey(bad as `0x${string}`);
      } catch (error) {
        message = String(error);
      }
      expect(message).toContain('a 32-byte secp256k1 private key');
      expect(message).not.toContain(bad.slice(2, 20));
    }
  });
});

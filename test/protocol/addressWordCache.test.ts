import { describe, expect, it } from 'vitest';
import { WORD, writeAddressWord } from '../../src/protocol/abiWords.js';

/** writeAddressWord remembers the bytes of address texts that parsed; refusals must not be remembered. */
const CHECKSUMMED = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

function word(address: string): string {
  const buf = new Uint8Array(WORD).fill(0xaa);
  writeAddressWord(buf, 0, address, 'account');
  return Buffer.from(buf).toString('hex');
}

describe('writeAddressWord with its address cache', () => {
  it('writes the same 20 bytes into the word’s low end on every call, for every accepted spelling', () => {
    // The padding bytes are the caller's (zeroed buffers); only the address bytes are written.
    const expected = `${'aa'.repeat(12)}${CHECKSUMMED.slice(2).toLowerCase()}`;
    for (let i = 0; i < 3; i++) {
      expect(word(CHECKSUMMED)).toBe(expected);
      expect(word(CHECKSUMMED.toLowerCase())).toBe(expected);
    }
  });

  it('refuses a wrong checksum every time, even after the right spellings were cached', () => {
    word(CHECKSUMMED);
    const typo = CHECKSUMMED.replace('C5', 'c5');
    for (let i = 0; i < 2; i++) expect(() => word(typo)).toThrow(/EIP-55 checksum/);
  });
});

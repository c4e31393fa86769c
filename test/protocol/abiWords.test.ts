import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WORD, writeIntWord, writeUintWord } from '../../src/protocol/abiWords.js';

/** The reference layout: big-endian, left-padded with zeros to 32 bytes. */
function word(value: bigint): string {
  return value.toString(16).padStart(64, '0');
}

describe('writeUintWord', () => {
  it('writes any uint256 big-endian into exactly its 32 bytes, leaving the neighbours alone', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }), fc.nat(3), (value, slot) => {
        const buf = new Uint8Array(WORD * 5).fill(0xaa);
        buf.fill(0, slot * WORD, (slot + 1) * WORD);
        writeUintWord(buf, slot * WORD, value);
        expect(Buffer.from(buf.subarray(slot * WORD, (slot + 1) * WORD)).toString('hex')).toBe(word(value));
        expect(buf.subarray(0, slot * WORD).every((b) => b === 0xaa)).toBe(true);
        expect(buf.subarray((slot + 1) * WORD).every((b) => b === 0xaa)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it.each([0n, 1n, 0xffn, 0x100n, 0xffffffffn, 0x1_0000_0000n, (1n << 88n) - 1n, (1n << 256n) - 1n])(
    'writes %s',
    (value) => {
      const buf = new Uint8Array(WORD);
      writeUintWord(buf, 0, value);
      expect(Buffer.from(buf).toString('hex')).toBe(word(value));
    },
  );
});

describe('writeIntWord', () => {
  it('sign-extends negative values to 256 bits', () => {
    const buf = new Uint8Array(WORD);
    writeIntWord(buf, 0, -2n);
    expect(Buffer.from(buf).toString('hex')).toBe(`${'ff'.repeat(31)}fe`);
  });
});

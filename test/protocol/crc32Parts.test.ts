import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CRC32_START, crc32Append, crc32Byte, crc32Part, crc32Result } from '../../src/protocol/crc32Parts.js';

/** The parts' CRC folded with one separator byte between them, as the orderbook checksum folds its levels. */
function folded(parts: readonly string[], separator: number): number {
  let register = CRC32_START;
  parts.forEach((text, i) => {
    register = crc32Append(i === 0 ? register : crc32Byte(register, separator), crc32Part(text));
  });
  return crc32Result(register);
}

const digits = fc.stringMatching(/^\d{1,40}:\d{1,30}$/);
const part = fc.oneof(
  digits,
  fc.string({ maxLength: 200 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constant(''),
);

describe('crc32Parts', () => {
  it("folds parts to zlib's CRC-32 of their joined text, whatever their lengths and characters", () => {
    fc.assert(
      fc.property(fc.array(part, { maxLength: 90 }), (parts) => {
        expect(folded(parts, 0x3a)).toBe(crc32(parts.join(':')) >>> 0);
      }),
      { numRuns: 1000 },
    );
  });

  it("gives zlib's CRC-32 of one part, of none, and of a long book-like text", () => {
    expect(folded([], 0x3a)).toBe(crc32('') >>> 0);
    expect(folded(['123456789'], 0x3a)).toBe(0xcbf43926);
    const levels = Array.from(
      { length: 80 },
      (_, i) => `${63_000 + i}${'0'.repeat(18)}:${(i * 7919) % 100_000}${'0'.repeat(12)}`,
    );
    expect(folded(levels, 0x3a)).toBe(crc32(levels.join(':')) >>> 0);
  });
});

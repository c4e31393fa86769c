import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addressSchema,
  base64ByteLength,
  base64SignatureSchema,
  decimalStringSchema,
  hexSignatureSchema,
  intStringSchema,
  intStringLooseSchema,
  marketIdLooseStringSchema,
  marketIdStringSchema,
  uintNumberLooseSchema,
  uintStringLooseSchema,
  uintNumberSchema,
  uintStringSchema,
} from '../../../src/venue/schemas/restPrimitives.js';

describe('REST wire primitives', () => {
  it('checksums addresses and refuses malformed or wrongly checksummed ones', () => {
    expect(addressSchema.parse('0xd8da6bf26964af9d7eed9e03e53415d37aa96045')).toBe(
      '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
    );
    expect(addressSchema.safeParse('0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96046').success).toBe(false);
    expect(addressSchema.safeParse('0x1234').success).toBe(false);
    expect(addressSchema.safeParse(42).success).toBe(false);
  });

  it('keeps decimal strings exact and refuses numbers and exponents', () => {
    expect(decimalStringSchema.parse('65000.123456789012345678')).toBe('65000.123456789012345678');
    expect(decimalStringSchema.safeParse(1.5).success).toBe(false);
    expect(decimalStringSchema.safeParse('1e5').success).toBe(false);
    expect(decimalStringSchema.safeParse('').success).toBe(false);
  });

  it('turns integer strings into range-checked bigints', () => {
    expect(uintStringSchema(48).parse('281474976710655')).toBe(281474976710655n);
    expect(uintStringSchema(48).safeParse('281474976710656').success).toBe(false);
    expect(uintStringSchema(48).safeParse('-1').success).toBe(false);
    expect(uintStringSchema(48).safeParse('1.0').success).toBe(false);
    expect(intStringSchema(128).parse('-170141183460469231731687303715884105728')).toBe(-(1n << 127n));
    expect(intStringSchema(128).safeParse('170141183460469231731687303715884105728').success).toBe(false);
  });

  it('range-checks integers sent as JSON numbers', () => {
    expect(uintNumberSchema(24).parse(16_777_215)).toBe(16_777_215);
    expect(uintNumberSchema(24).safeParse(16_777_216).success).toBe(false);
    expect(uintNumberSchema(24).safeParse(1.5).success).toBe(false);
    expect(uintNumberSchema(24).safeParse('1').success).toBe(false);
  });

  it('accepts market id strings within uint16 without leading zeros', () => {
    expect(marketIdStringSchema.parse('65535')).toBe('65535');
    expect(marketIdStringSchema.safeParse('65536').success).toBe(false);
    // Refused, never thrown: the range check must not convert what the pattern refused.
    for (const bad of ['abc', '<script>', '1e3', '-1', ''])
      expect(marketIdStringSchema.safeParse(bad).success).toBe(false);
    expect(marketIdStringSchema.safeParse('01').success).toBe(false);
  });

  it('checks signature encodings by decoded length', () => {
    expect(hexSignatureSchema.safeParse(`0x${'ab'.repeat(65)}`).success).toBe(true);
    expect(hexSignatureSchema.safeParse(`0x${'ab'.repeat(64)}`).success).toBe(false);
    const compact = Buffer.alloc(64, 7).toString('base64');
    const full = Buffer.alloc(65, 7).toString('base64');
    expect(base64ByteLength(compact)).toBe(64);
    expect(base64ByteLength(full)).toBe(65);
    expect(base64SignatureSchema.safeParse(compact).success).toBe(true);
    expect(base64SignatureSchema.safeParse(full).success).toBe(true);
    expect(base64SignatureSchema.safeParse(Buffer.alloc(63, 7).toString('base64')).success).toBe(false);
    expect(base64SignatureSchema.safeParse(`0x${'ab'.repeat(65)}`).success).toBe(false);
  });
});

describe('integers as JSON numbers or strings (venue-wire.md §4.4)', () => {
  it('reads both forms to the same value, range-checked', () => {
    expect(uintNumberLooseSchema(16).parse(7)).toBe(7);
    expect(uintNumberLooseSchema(16).parse('7')).toBe(7);
    expect(uintNumberLooseSchema(16).safeParse('65536').success).toBe(false);
    expect(uintNumberLooseSchema(16).safeParse('1.5').success).toBe(false);
    expect(uintNumberLooseSchema(16).safeParse(true).success).toBe(false);
    expect(uintStringLooseSchema(48).parse('42')).toBe(42n);
    expect(uintStringLooseSchema(48).parse(42)).toBe(42n);
    expect(uintStringLooseSchema(48).safeParse(2 ** 48).success).toBe(false);
    expect(intStringLooseSchema(128).parse(-5)).toBe(-5n);
    expect(marketIdLooseStringSchema.parse(2)).toBe('2');
    expect(marketIdLooseStringSchema.safeParse(2.5).success).toBe(false);
  });

  it('refuses a JSON number past 2^53, whose digits were lost in parsing, saying to send a string', () => {
    const result = uintStringLooseSchema(64).safeParse(2 ** 53 + 2);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(/past 2\^53.*as a string/);
    expect(uintStringLooseSchema(64).parse(String(2n ** 53n + 1n))).toBe(2n ** 53n + 1n);
  });
});

describe('base64ByteLength', () => {
  /** The pattern it was written from. */
  const byPattern = (text: string): number | undefined => {
    if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return undefined;
    return (text.length / 4) * 3 - (text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0);
  };

  it('answers as the pattern does for any text, base64 or nearly', () => {
    const char = fc.constantFrom(...'AZaz09+/=-_ .\u00e9\u0000'.split(''), 'Q', 'w');
    const nearly = fc.array(char, { maxLength: 16 }).map((c) => c.join(''));
    const encoded = fc.uint8Array({ maxLength: 70 }).map((b) => Buffer.from(b).toString('base64'));
    const mangled = fc
      .tuple(encoded, fc.nat(), char)
      .map(([t, at, c]) => (t.length === 0 ? t : `${t.slice(0, at % t.length)}${c}${t.slice((at % t.length) + 1)}`));
    fc.assert(
      fc.property(fc.oneof(nearly, encoded, mangled, fc.string()), (text) => {
        expect(base64ByteLength(text)).toBe(byPattern(text));
      }),
      { numRuns: 5000 },
    );
    for (const text of ['', '====', 'A===', 'AA==', 'AAA=', 'AAAA', '=AAA', 'A=AA'])
      expect(base64ByteLength(text)).toBe(byPattern(text));
  });
});

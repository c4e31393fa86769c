import { describe, expect, it } from 'vitest';
import { checkInt, checkRange, checkUint, toBigInt, uintMax } from '../../src/core/integerRange.js';
import { parseAddress } from '../../src/core/address.js';
import { PerpbotError } from '../../src/core/perpbotError.js';

describe('integer ranges', () => {
  it('accepts the bounds of each width and refuses one past them', () => {
    expect(checkUint(16_777_215, 24, 'price_ticks')).toBe(16_777_215n);
    expect(() => checkUint(16_777_216, 24, 'price_ticks')).toThrow(
      'price_ticks: invalid value 16777216; allowed: uint24: 0 to 16777215',
    );
    expect(() => checkUint(-1, 8, 'x')).toThrow(/uint8/);
    expect(checkInt((1n << 127n) - 1n, 128, 'amount')).toBe((1n << 127n) - 1n);
    expect(checkInt(-(1n << 127n), 128, 'amount')).toBe(-(1n << 127n));
    expect(() => checkInt(1n << 127n, 128, 'amount')).toThrow(
      /amount: invalid value 170141183460469231731687303715884105728; allowed: int128/,
    );
    expect(() => checkRange(208, 0n, 207n, 'nonce_bitmap_index')).toThrow(
      'nonce_bitmap_index: invalid value 208; allowed: 0 to 207',
    );
  });

  it('refuses fractional and unsafe numbers', () => {
    expect(() => toBigInt(1.5, 'x')).toThrow(/a safe integer/);
    expect(() => toBigInt(2 ** 60, 'x')).toThrow(/a safe integer/);
    expect(() => toBigInt('12a', 'x')).toThrow(/integer string/);
    expect(toBigInt('-12', 'x')).toBe(-12n);
  });
});

describe('addresses', () => {
  it('checksums valid addresses and refuses malformed or badly checksummed ones', () => {
    expect(parseAddress('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', 'account')).toBe(
      '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    );
    expect(() => parseAddress('0xf39fd6e51aad88f6f4ce6ab8827279cfffb9226', 'account')).toThrow(
      /account: invalid value/,
    );
    expect(() => parseAddress('0xF39fd6e51aad88F6F4ce6aB8827279cffFb92266', 'account')).toThrow(/checksum/);
    const err = (() => {
      try {
        parseAddress(42, 'signer');
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(PerpbotError);
    expect((err as PerpbotError).code).toBe('INVALID_VALUE');
    expect((err as PerpbotError).details).toMatchObject({ field: 'signer', value: '42' });
  });
});

describe('uintMax', () => {
  it.each([
    [0, 0n],
    [8, 255n],
    [64, 18_446_744_073_709_551_615n],
    [256, (1n << 256n) - 1n],
    [300, (1n << 300n) - 1n],
  ])('uint%i tops out at %s, the same on every call', (bits, max) => {
    expect(uintMax(bits)).toBe(max);
    expect(uintMax(bits)).toBe(max);
  });
});

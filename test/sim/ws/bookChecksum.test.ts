import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { bookChecksum, bookChecksumText } from '../../../src/sim/ws/bookChecksum.js';

describe('bookChecksum', () => {
  it('interleaves bids (best first) and asks (best first) level by level, price then quantity', () => {
    const bids = [
      { price: '100', quantity: '5' },
      { price: '99', quantity: '7' },
      { price: '98', quantity: '1' },
    ];
    const asks = [{ price: '101', quantity: '2' }];
    expect(bookChecksumText(bids, asks)).toBe('100:5:101:2:99:7:98:1');
  });

  it('is the CRC32 of that text as an unsigned 32-bit integer', () => {
    // CRC32("123456789") is the published check value 0xCBF43926.
    expect(bookChecksum([{ price: '1234', quantity: '5' }], [{ price: '6789', quantity: '' }])).toBe(crc32('1234:5:6789:'));
    expect(crc32('123456789')).toBe(0xcbf43926);
    const sum = bookChecksum([{ price: '100', quantity: '5' }], []);
    expect(sum).toBeGreaterThanOrEqual(0);
    expect(sum).toBeLessThanOrEqual(0xffffffff);
  });

  it('changes when any level changes and does not depend on side lengths alone', () => {
    const base = bookChecksum([{ price: '100', quantity: '5' }], [{ price: '101', quantity: '5' }]);
    expect(bookChecksum([{ price: '100', quantity: '6' }], [{ price: '101', quantity: '5' }])).not.toBe(base);
    expect(bookChecksum([{ price: '101', quantity: '5' }], [{ price: '100', quantity: '5' }])).not.toBe(base);
  });

  it('of an empty book is the CRC32 of the empty string', () => {
    expect(bookChecksum([], [])).toBe(0);
  });
});

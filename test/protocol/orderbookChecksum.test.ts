import { describe, expect, it } from 'vitest';
import { orderbookChecksum, orderbookChecksumText } from '../../src/protocol/orderbookChecksum.js';

/** Bitwise CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320): an independent reference. */
function referenceCrc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

const bids = [
  { price: '65000.5', quantity: '1.5' },
  { price: '64999', quantity: '2' },
];
const asks = [{ price: '65001', quantity: '0.25' }];
// Written out by hand from the rule: bid0, ask0, bid1; price then quantity; wei; ":" between.
const expectedText =
  '65000500000000000000000:1500000000000000000:65001000000000000000000:250000000000000000:64999000000000000000000:2000000000000000000';

describe('orderbookChecksum', () => {
  it('interleaves bids and asks best-first, each level as wei price:quantity', () => {
    expect(orderbookChecksumText(bids, asks)).toBe(expectedText);
  });

  it('matches the hand-computed vector (CRC32 of the text above, from Python zlib.crc32)', () => {
    expect(orderbookChecksum(bids, asks)).toBe(4158422706);
    expect(referenceCrc32(expectedText)).toBe(4158422706);
  });

  it('agrees with the bitwise reference on the standard check string', () => {
    expect(referenceCrc32('123456789')).toBe(0xcbf43926);
  });

  it.each([
    { name: 'empty book', bids: [], asks: [], text: '' },
    {
      name: 'asks only',
      bids: [],
      asks: [
        { price: '1', quantity: '0.1' },
        { price: '2', quantity: '3' },
      ],
      text: '1000000000000000000:100000000000000000:2000000000000000000:3000000000000000000',
    },
    {
      name: 'longer bid side continues alone',
      bids: [
        { price: '3', quantity: '1' },
        { price: '2', quantity: '1' },
        { price: '1', quantity: '1' },
      ],
      asks: [{ price: '4', quantity: '1' }],
      text: '3000000000000000000:1000000000000000000:4000000000000000000:1000000000000000000:2000000000000000000:1000000000000000000:1000000000000000000:1000000000000000000',
    },
  ])('$name', ({ bids: b, asks: a, text }) => {
    expect(orderbookChecksumText(b, a)).toBe(text);
    expect(orderbookChecksum(b, a)).toBe(referenceCrc32(text));
  });

  it('changes when any quantity changes', () => {
    const moved = [{ price: '65001', quantity: '0.26' }];
    expect(orderbookChecksum(bids, moved)).not.toBe(orderbookChecksum(bids, asks));
  });

  it('refuses a price that is not an exact decimal', () => {
    expect(() => orderbookChecksum([{ price: '1e3', quantity: '1' }], [])).toThrow(/bids\[0\]\.price/);
  });
});

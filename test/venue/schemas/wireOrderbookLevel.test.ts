import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { weiToDecimal } from '../../../src/core/decimal.js';
import { orderbookChecksum, orderbookChecksumOfWire } from '../../../src/protocol/orderbookChecksum.js';
import { compareIntegerText, WireOrderbookLevel } from '../../../src/venue/schemas/wireOrderbookLevel.js';

const weiText = fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String);
const zeros = fc.string({ unit: fc.constant('0'), maxLength: 3 });

describe('WireOrderbookLevel', () => {
  it('reads the same decimals and integers as an eager BigInt conversion, leading zeros or not', () => {
    fc.assert(
      fc.property(weiText, weiText, zeros, (price, quantity, pad) => {
        const level = new WireOrderbookLevel(pad + price, quantity, 3);
        expect(level.priceText).toBe(price);
        expect(level.priceWei).toBe(BigInt(price));
        expect(level.quantityWei).toBe(BigInt(quantity));
        expect(level.price).toBe(weiToDecimal(BigInt(price)));
        expect(level.quantity).toBe(weiToDecimal(BigInt(quantity)));
        expect(level.isDeletion).toBe(BigInt(quantity) === 0n);
      }),
    );
  });

  it('treats any spelling of zero as a deletion', () => {
    expect(new WireOrderbookLevel('1', '000', 0).isDeletion).toBe(true);
    expect(new WireOrderbookLevel('1', '0010', 1).isDeletion).toBe(false);
  });

  it('serialises to its decoded values', () => {
    const level = new WireOrderbookLevel('65000500000000000000000', '1500000000000000000', 2);
    expect(JSON.parse(JSON.stringify(level))).toEqual({ price: '65000.5', quantity: '1.5', orderCount: 2 });
  });
});

describe('compareIntegerText', () => {
  it('orders canonical integer strings as numbers', () => {
    fc.assert(
      fc.property(weiText, weiText, (a, b) => {
        const expected = BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0;
        expect(Math.sign(compareIntegerText(a, b))).toBe(expected);
      }),
    );
  });
});

describe('orderbookChecksumOfWire', () => {
  it('equals the checksum computed from the decimal levels', () => {
    const side = fc.array(fc.tuple(weiText, weiText), { maxLength: 6 });
    fc.assert(
      fc.property(side, side, (bids, asks) => {
        const wire = (levels: [string, string][]): WireOrderbookLevel[] =>
          levels.map(([p, q]) => new WireOrderbookLevel(p, q, 1));
        expect(orderbookChecksumOfWire(wire(bids), wire(asks))).toBe(orderbookChecksum(wire(bids), wire(asks)));
      }),
    );
  });
});

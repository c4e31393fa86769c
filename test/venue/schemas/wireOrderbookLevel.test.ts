import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalTextToWeiText, decimalToWei, weiToDecimal } from '../../../src/core/decimal.js';
import { orderbookChecksum, orderbookChecksumOfWire } from '../../../src/protocol/orderbookChecksum.js';
import { compareIntegerText, WireOrderbookLevel } from '../../../src/venue/schemas/wireOrderbookLevel.js';

const weiText = fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String);
const zeros = fc.string({ unit: fc.constant('0'), maxLength: 3 });
/** A wire decimal as the venue may spell it: up to 18 + 18 digits, maybe padded with zeros. */
const wireDecimal = fc
  .tuple(
    fc.bigInt({ min: 0n, max: 10n ** 18n - 1n }),
    fc.option(fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 18 }), { nil: undefined }),
    zeros,
  )
  .map(([whole, fraction, pad]) => {
    const text = `${pad}${whole}${fraction === undefined ? '' : `.${fraction}`}`;
    // At most 18 integer digits on the wire.
    return text.length - (fraction === undefined ? 0 : fraction.length + 1) > 18 ? `${whole}` : text;
  });

describe('WireOrderbookLevel', () => {
  it('reads the same decimals, wei and wei text as an eager BigInt conversion, whatever the spelling', () => {
    fc.assert(
      fc.property(wireDecimal, wireDecimal, (price, quantity) => {
        const level = new WireOrderbookLevel(price, quantity, 3);
        const priceWei = decimalToWei(price, 'price');
        const quantityWei = decimalToWei(quantity, 'quantity');
        expect(level.priceWeiText).toBe(priceWei.toString());
        expect(level.quantityWeiText).toBe(quantityWei.toString());
        expect(level.priceWei).toBe(priceWei);
        expect(level.quantityWei).toBe(quantityWei);
        expect(level.price).toBe(weiToDecimal(priceWei));
        expect(level.quantity).toBe(weiToDecimal(quantityWei));
        expect(level.isDeletion).toBe(quantityWei === 0n);
      }),
    );
  });

  it('reads a decimal seen before (its wei text remembered) as it read it the first time', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('63220.5', '0063220.50', '0.00068', '0', '1.000'), { maxLength: 30 }),
        (texts) => {
          for (const text of texts) {
            const level = new WireOrderbookLevel(text, text, 1);
            expect(level.priceWeiText).toBe(decimalToWei(text, 'price').toString());
            expect(level.quantityWeiText).toBe(level.priceWeiText);
          }
        },
      ),
    );
  });

  it('keys two spellings of one price alike, and treats any spelling of zero as a deletion', () => {
    expect(new WireOrderbookLevel('63220', '1', 1).priceWeiText).toBe(
      new WireOrderbookLevel('63220.000', '1', 1).priceWeiText,
    );
    expect(new WireOrderbookLevel('063220.50', '1', 1).price).toBe('63220.5');
    expect(new WireOrderbookLevel('1', '0.000', 0).isDeletion).toBe(true);
    expect(new WireOrderbookLevel('1', '00', 0).isDeletion).toBe(true);
    expect(new WireOrderbookLevel('1', '0.000000000000000001', 1).isDeletion).toBe(false);
  });

  it('serialises to its decoded values', () => {
    const level = new WireOrderbookLevel('65000.50', '1.5', 2);
    expect(JSON.parse(JSON.stringify(level))).toEqual({ price: '65000.5', quantity: '1.5', orderCount: 2 });
  });
});

describe('decimalTextToWeiText', () => {
  it('is the string form of decimalToWei', () => {
    fc.assert(
      fc.property(wireDecimal, (text) => {
        expect(decimalTextToWeiText(text)).toBe(decimalToWei(text, 'text').toString());
      }),
    );
    expect(decimalTextToWeiText('63218.5')).toBe('63218500000000000000000');
    expect(decimalTextToWeiText('0.0')).toBe('0');
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
  it('over the levels the client decoded equals the checksum the simulator computes from decimals', () => {
    const side = fc.array(fc.tuple(wireDecimal, wireDecimal), { maxLength: 6 });
    fc.assert(
      fc.property(side, side, (bids, asks) => {
        const wire = (levels: [string, string][]): WireOrderbookLevel[] =>
          levels.map(([p, q]) => new WireOrderbookLevel(p, q, 1));
        const decimal = (levels: [string, string][]): { price: string; quantity: string }[] =>
          levels.map(([price, quantity]) => ({ price, quantity }));
        expect(orderbookChecksumOfWire(wire(bids), wire(asks))).toBe(orderbookChecksum(decimal(bids), decimal(asks)));
      }),
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { remainingByArithmetic, remainingSize } from '../../../src/engine/orders/remainingSize.js';

/** Decimal texts in every spelling the parser takes: signs, leading and trailing zeros, long fractions. */
const decimalText = fc
  .tuple(
    fc.constantFrom('', '-'),
    fc.stringMatching(/^\d{1,25}$/),
    fc.option(fc.stringMatching(/^\d{1,20}$/), { nil: undefined }),
  )
  .map(([sign, whole, fraction]) => `${sign}${whole}${fraction === undefined ? '' : `.${fraction}`}`);

/** Texts the parser refuses, or that are near misses of a decimal. */
const otherText = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('', '.', '1.', '.5', '1e3', ' 1', '1 ', '+1', '--1', '0x10', 'NaN'),
);

describe('remainingSize', () => {
  it('is, with nothing filled, exactly the arithmetic of size − "0" floored at zero, whatever the size', () => {
    fc.assert(
      fc.property(fc.oneof(decimalText, otherText), (size) => {
        expect(remainingSize(size, '0')).toBe(remainingByArithmetic(size, '0'));
      }),
      { numRuns: 3000 },
    );
  });

  it('takes the arithmetic way once something is filled', () => {
    fc.assert(
      fc.property(fc.oneof(decimalText, otherText), fc.oneof(decimalText, otherText), (size, filled) => {
        expect(remainingSize(size, filled)).toBe(remainingByArithmetic(size, filled));
      }),
      { numRuns: 1000 },
    );
  });

  it.each([
    ['0.00015', '0', '0.00015'],
    ['1.50', '0', '1.5'],
    ['007', '0', '7'],
    ['-0.0', '0', '0'],
    ['-2', '0', '0'],
    ['2', '0.5', '1.5'],
    ['1', '3', '0'],
    ['not a size', '0', 'not a size'],
  ])('remaining of %s with %s filled is %s', (size, filled, expected) => {
    expect(remainingSize(size, filled)).toBe(expected);
  });
});

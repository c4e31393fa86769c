import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDecimals,
  compareDecimals,
  multiplyDecimals,
  negateDecimal,
  normalizeDecimal,
  parseDecimal,
} from '../../../src/core/decimal.js';
import {
  absFixed,
  addFixed,
  compareFixed,
  fixedText,
  multiplyFixed,
  negateFixed,
  unitsAt,
} from '../../../src/engine/checks/fixedPoint.js';

/** Decimal strings with up to 50 fraction digits, so scales beyond any cached power of ten occur. */
const decimal = fc
  .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.integer({ min: 0, max: 50 }))
  .map(([negative, units, scale]) => {
    const digits = units.toString().padStart(scale + 1, '0');
    const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
    return negative ? `-${text}` : text;
  });

describe('fixedPoint: the same answers as the string helpers of core/decimal', () => {
  it('compare, multiply, add, negate and abs agree with compareDecimals, multiplyDecimals, addDecimals, negateDecimal', () => {
    fc.assert(
      fc.property(decimal, decimal, (a, b) => {
        const x = parseDecimal(a, 'a');
        const y = parseDecimal(b, 'b');
        expect(compareFixed(x, y)).toBe(compareDecimals(a, b));
        expect(fixedText(multiplyFixed(x, y))).toBe(multiplyDecimals(a, b));
        expect(fixedText(addFixed(x, y))).toBe(addDecimals(a, b));
        expect(fixedText(negateFixed(x))).toBe(negateDecimal(a));
        expect(fixedText(absFixed(x))).toBe(normalizeDecimal(a.startsWith('-') ? a.slice(1) : a, 'a'));
      }),
    );
  });

  it('brings units to a larger scale exactly, also past the cached powers of ten', () => {
    expect(unitsAt({ units: 15n, scale: 1 }, 3)).toBe(1500n);
    expect(unitsAt({ units: -2n, scale: 0 }, 45)).toBe(-2n * 10n ** 45n);
  });

  it('formats canonically: no trailing zeros, no negative zero', () => {
    expect(fixedText({ units: 1500n, scale: 3 })).toBe('1.5');
    expect(fixedText(negateFixed({ units: 0n, scale: 2 }))).toBe('0');
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDecimals, compareDecimals, fixedToDecimal, negateDecimal } from '../../src/core/decimal.js';
import { formatPlaces, placesOf, roundHalfEven, toPlaces, USDC_PLACES } from '../../src/core/displayDecimal.js';

describe('money on screen', () => {
  it('rounds half to even: a tie goes to the even digit, anything past a tie away from it', () => {
    expect(toPlaces('1.25', 1)).toBe('1.2');
    expect(toPlaces('1.35', 1)).toBe('1.4');
    expect(toPlaces('1.2500000000000001', 1)).toBe('1.3');
    expect(toPlaces('-1.25', 1)).toBe('-1.2');
    expect(toPlaces('-1.35', 1)).toBe('-1.4');
    expect(toPlaces('-1.251', 1)).toBe('-1.3');
  });

  it('shows USDC with 6 places: the venue’s 18-digit balance, padded figures, no negative zero', () => {
    expect(USDC_PLACES).toBe(6);
    expect(toPlaces('999.853798214999999996', USDC_PLACES)).toBe('999.853798');
    expect(toPlaces('999.8537985', USDC_PLACES)).toBe('999.853798');
    expect(toPlaces('999.8537975', USDC_PLACES)).toBe('999.853798');
    expect(toPlaces('1000', USDC_PLACES)).toBe('1000.000000');
    expect(toPlaces('-0.0000004', USDC_PLACES)).toBe('0.000000');
    expect(toPlaces('-0.0000006', USDC_PLACES)).toBe('-0.000001');
    expect(toPlaces('65000', 0)).toBe('65000');
  });

  it('formats units with every place written', () => {
    expect(formatPlaces(12n, 2)).toBe('0.12');
    expect(formatPlaces(-5n, 3)).toBe('-0.005');
    expect(formatPlaces(0n, 2)).toBe('0.00');
    expect(formatPlaces(650001n, 1)).toBe('65000.1');
  });

  it('reads the places of a grid step, and refuses a step that is not one', () => {
    expect(placesOf('0.1')).toBe(1);
    expect(placesOf('0.00001')).toBe(5);
    expect(placesOf('0.50')).toBe(1);
    expect(placesOf('1')).toBe(0);
    expect(placesOf('10')).toBe(0);
    expect(() => placesOf('0')).toThrow(/step.*positive decimal/);
    expect(() => placesOf('1e-5')).toThrow(/step/);
  });

  it('is never more than half a unit of the last place from the exact value, and exact when it has no more places', () => {
    const decimal = fc
      .tuple(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: 0, max: 18 }))
      .map(([units, scale]) => fixedToDecimal(units, scale));
    fc.assert(
      fc.property(decimal, fc.integer({ min: 0, max: 8 }), (value, places) => {
        const shown = fixedToDecimal(roundHalfEven(value, places), places);
        const error = addDecimals(shown, negateDecimal(value));
        const half = `0.${'0'.repeat(places)}5`;
        expect(compareDecimals(error, half)).toBeLessThanOrEqual(0);
        expect(compareDecimals(error, negateDecimal(half))).toBeGreaterThanOrEqual(0);
        if (!value.includes('.') || value.split('.')[1]!.length <= places) expect(shown).toBe(value);
      }),
    );
  });
});

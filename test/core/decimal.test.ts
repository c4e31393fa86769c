import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compareDecimals,
  countUnits,
  decimalToFixed,
  divideRounded,
  fixedToDecimal,
  multiplyUnits,
  normalizeDecimal,
  parseDecimal,
  weiToDecimal,
} from '../../src/core/decimal.js';
import { InvalidValueError } from '../../src/core/invalidValueError.js';

describe('decimal', () => {
  it('converts between decimal strings and fixed-point bigints exactly', () => {
    expect(decimalToFixed('1.5', 18, 'x')).toBe(1_500_000_000_000_000_000n);
    expect(decimalToFixed('-0.000000000000000001', 18, 'x')).toBe(-1n);
    expect(fixedToDecimal(1_500_000_000_000_000_000n, 18)).toBe('1.5');
    expect(fixedToDecimal(-1n, 18)).toBe('-0.000000000000000001');
    expect(fixedToDecimal(0n, 6)).toBe('0');
    expect(fixedToDecimal(1200n, 0)).toBe('1200');
  });

  it('refuses to drop digits unless a rounding mode is named', () => {
    expect(() => decimalToFixed('1.2345', 2, 'price')).toThrow(InvalidValueError);
    expect(() => decimalToFixed('1.2345', 2, 'price')).toThrow(
      /price: invalid value "1.2345"; allowed: at most 2 decimal places/,
    );
    expect(decimalToFixed('1.2345', 2, 'price', 'down')).toBe(123n);
    expect(decimalToFixed('1.2345', 2, 'price', 'up')).toBe(124n);
    expect(decimalToFixed('1.235', 2, 'price', 'nearest')).toBe(124n);
    expect(decimalToFixed('1.2349', 2, 'price', 'nearest')).toBe(123n);
  });

  it('rounds negative values toward the named direction', () => {
    expect(divideRounded(-7n, 2n, 'down')).toBe(-4n);
    expect(divideRounded(-7n, 2n, 'up')).toBe(-3n);
    expect(divideRounded(-7n, 2n, 'nearest')).toBe(-4n);
    expect(divideRounded(-5n, 4n, 'nearest')).toBe(-1n);
    expect(divideRounded(7n, -2n, 'down')).toBe(-4n);
  });

  it('refuses malformed decimals with the field name', () => {
    for (const bad of ['', '1.', '.5', '1e3', ' 1', '1,5', 'NaN', '0x10']) {
      expect(() => decimalToFixed(bad, 2, 'size'), bad).toThrow(/^size: invalid value/);
    }
    expect(() => decimalToFixed(1.5, 2, 'size')).toThrow(InvalidValueError);
  });

  it('counts whole units on a grid and refuses off-grid values', () => {
    expect(countUnits('0.003', '0.001', 'size')).toBe(3n);
    expect(countUnits('65000.5', '0.1', 'price')).toBe(650005n);
    expect(() => countUnits('0.0035', '0.001', 'size')).toThrow(/a whole multiple of 0.001/);
    expect(countUnits('0.0035', '0.001', 'size', 'down')).toBe(3n);
    expect(countUnits('0.0035', '0.001', 'size', 'up')).toBe(4n);
    expect(countUnits('0.0035', '0.001', 'size', 'nearest')).toBe(4n);
    expect(countUnits('0.00349', '0.001', 'size', 'nearest')).toBe(3n);
    expect(() => countUnits('1', '0', 'size')).toThrow(/size unit/);
  });

  it('multiplies, compares and normalises exactly', () => {
    expect(multiplyUnits(3n, '0.001')).toBe('0.003');
    expect(multiplyUnits(650005n, '0.1')).toBe('65000.5');
    expect(compareDecimals('1.10', '1.1')).toBe(0);
    expect(compareDecimals('-2', '1')).toBe(-1);
    expect(compareDecimals('0.3', '0.29999999999999999999')).toBe(1);
    expect(normalizeDecimal('0010.500', 'x')).toBe('10.5');
    expect(normalizeDecimal('-0.0', 'x')).toBe('0');
  });

  it('converts wei integers to exact decimals', () => {
    expect(weiToDecimal('65000500000000000000000')).toBe('65000.5');
    expect(weiToDecimal('1')).toBe('0.000000000000000001');
    expect(() => weiToDecimal('1.5')).toThrow(/wei/);
  });
});

describe('addDecimals and negateDecimal', () => {
  it('add and negate exactly, canonically', async () => {
    const { addDecimals, negateDecimal } = await import('../../src/core/decimal.js');
    expect(addDecimals('0.1', '0.2')).toBe('0.3');
    expect(addDecimals('-1.25', '1')).toBe('-0.25');
    expect(addDecimals('1000', '-1000.000')).toBe('0');
    expect(negateDecimal('0.00')).toBe('0');
    expect(negateDecimal('-3.5')).toBe('3.5');
    expect(negateDecimal('2')).toBe('-2');
  });
});

describe('weiTextToDecimal', () => {
  it('equals weiToDecimal on every non-negative integer string, leading zeros included', async () => {
    const fc = (await import('fast-check')).default;
    const { weiTextToDecimal, weiToDecimal } = await import('../../src/core/decimal.js');
    fc.assert(
      fc.property(fc.stringMatching(/^\d{1,40}$/), (wei) => {
        expect(weiTextToDecimal(wei)).toBe(weiToDecimal(wei));
      }),
      { numRuns: 5000 },
    );
    expect(weiTextToDecimal('0')).toBe('0');
    expect(weiTextToDecimal('000')).toBe('0');
    expect(weiTextToDecimal('1')).toBe('0.000000000000000001');
    expect(weiTextToDecimal('65000500000000000000000')).toBe('65000.5');
  });

  it('weiDigitsToDecimal reads the same digits in place, inside a longer text', async () => {
    const fc = (await import('fast-check')).default;
    const { weiDigitsToDecimal, weiTextToDecimal } = await import('../../src/core/decimal.js');
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{1,40}$/),
        fc.string({ maxLength: 4 }),
        fc.string({ maxLength: 4 }),
        (wei, before, after) => {
          const text = `${before}${wei}${after}`;
          expect(weiDigitsToDecimal(text, before.length, before.length + wei.length)).toBe(weiTextToDecimal(wei));
        },
      ),
      { numRuns: 2000 },
    );
    expect(weiDigitsToDecimal('"65000500000000000000000"', 1, 24)).toBe('65000.5');
    expect(weiDigitsToDecimal('x100000000000000000000y', 1, 22)).toBe('100');
    expect(weiDigitsToDecimal('x000100000000000000000y', 1, 22)).toBe('0.1');
  });

  it('parseDecimal accepts exactly what its pattern accepts, with the same value', () => {
    const pattern = /^(-)?(\d+)(?:\.(\d+))?$/;
    const text = fc.string({
      unit: fc.constantFrom('-', '.', '0', '1', '7', '9', ' ', 'e', '+', '\n', '٣'),
      maxLength: 8,
    });
    fc.assert(
      fc.property(text, (t) => {
        const match = pattern.exec(t);
        if (match === null) {
          expect(() => parseDecimal(t, 'x')).toThrow(/a decimal string/);
          return;
        }
        const [, sign, whole, fraction = ''] = match;
        const units = BigInt(`${whole}${fraction}`);
        expect(parseDecimal(t, 'x')).toEqual({ units: sign === '-' ? -units : units, scale: fraction.length });
      }),
      { numRuns: 5000 },
    );
  });
});

describe('parseDecimal remembered', () => {
  it('gives a text parsed before the same value, and refuses a refused one again', () => {
    expect(parseDecimal('-12.50', 'x')).toEqual({ units: -1250n, scale: 2 });
    expect(parseDecimal('-12.50', 'x')).toEqual({ units: -1250n, scale: 2 });
    expect(() => parseDecimal('1e3', 'x')).toThrow(/a decimal string/);
    expect(() => parseDecimal('1e3', 'x')).toThrow(/a decimal string/);
    // One object per text, shared by every reader: frozen, so no reader can change another's value.
    expect(parseDecimal('-12.50', 'x')).toBe(parseDecimal('-12.50', 'y'));
    expect(Object.isFrozen(parseDecimal('-12.50', 'x'))).toBe(true);
    // Past the bound the remembered texts start again, and still parse alike.
    for (let i = 0; i < 12_000; i++) expect(parseDecimal(`${i}.5`, 'x').units).toBe(BigInt(i) * 10n + 5n);
    expect(parseDecimal('-12.50', 'x')).toEqual({ units: -1250n, scale: 2 });
  });
});

describe('fixedToDecimal', () => {
  it('writes every value at every scale as the bigint divided by 10^scale, canonically', () => {
    // The reference: the value's digits split at the scale by bigint division, trailing zeros dropped.
    const reference = (units: bigint, scale: number): string => {
      const abs = units < 0n ? -units : units;
      const whole = abs / 10n ** BigInt(scale);
      const fraction = (abs % 10n ** BigInt(scale)).toString().padStart(scale, '0').replace(/0+$/, '');
      const body = fraction.length > 0 ? `${whole}.${fraction}` : `${whole}`;
      return units < 0n ? `-${body}` : body;
    };
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }), fc.integer({ min: 0, max: 30 }), (u, scale) => {
        expect(fixedToDecimal(u, scale)).toBe(reference(u, scale));
      }),
      { numRuns: 5000 },
    );
    expect(fixedToDecimal(-1200n, 2)).toBe('-12');
    expect(fixedToDecimal(5n, 3)).toBe('0.005');
    expect(fixedToDecimal(-50n, 3)).toBe('-0.05');
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDecimals, compareDecimals, decimalToFixed, fixedToDecimal, negateDecimal } from '../../src/core/decimal.js';
import { toPlaces } from '../../src/core/displayDecimal.js';
import { footedStatement } from '../../src/core/footedStatement.js';

const units = (text: string, places: number) => decimalToFixed(text, places, 'shown');

describe('a statement that adds up on screen', () => {
  it('rounds the start and the running totals, and shows each line as the difference', () => {
    // Each line rounded by itself is 0.000000, yet the running total moves by 0.000001.
    const s = footedStatement('999.9999996', ['0.0000004', '0.0000007'], 6);
    expect(s.start).toBe('1000.000000');
    expect(s.totals).toEqual(['1000.000000', '1000.000001']);
    expect(s.lines).toEqual(['0.000000', '0.000001']);
  });

  it('shows a line that is exactly zero as zero', () => {
    const s = footedStatement('12.3456785', ['0.0000011', '0', '-0.0000011'], 6);
    expect(s.lines[1]).toBe('0.000000');
    expect(s.totals[2]).toBe('12.345678');
  });

  it('adds up to the last digit, totals are the exact totals rounded, lines within one unit of exact', () => {
    const money = fc.bigInt({ min: -(10n ** 24n), max: 10n ** 24n }).map((wei) => fixedToDecimal(wei, 18));
    fc.assert(
      fc.property(money, fc.array(money, { minLength: 1, maxLength: 8 }), (start, lines) => {
        const shown = footedStatement(start, lines, 6);
        let exact = start;
        let total = units(shown.start, 6);
        expect(shown.start).toBe(toPlaces(start, 6));
        lines.forEach((line, i) => {
          exact = addDecimals(exact, line);
          total += units(shown.lines[i]!, 6);
          expect(shown.totals[i]).toBe(toPlaces(exact, 6));
          expect(fixedToDecimal(total, 6)).toBe(fixedToDecimal(units(shown.totals[i]!, 6), 6));
          const off = addDecimals(shown.lines[i]!, negateDecimal(line));
          expect(compareDecimals(off, '0.000001')).toBeLessThanOrEqual(0);
          expect(compareDecimals(off, '-0.000001')).toBeGreaterThanOrEqual(0);
        });
      }),
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countUnits, type Rounding } from '../../../src/core/decimal.js';
import { gridUnits } from '../../../src/engine/quoting/gridUnits.js';

describe('gridUnits', () => {
  it('answers as countUnits does, asked once or many times, whatever was asked before', () => {
    const value = fc.oneof(
      fc.integer({ min: 0, max: 100_000 }).map((n) => (n / 100).toString()),
      fc.constantFrom('65000.05', '0.001', '0', 'x', '1e3', '-0.5'),
    );
    const unit = fc.constantFrom('0.1', '0.01', '0.001', '1', '0');
    const rounding = fc.constantFrom<Rounding | undefined>(undefined, 'down', 'up', 'nearest');
    fc.assert(
      fc.property(fc.array(fc.tuple(value, unit, rounding), { minLength: 1, maxLength: 20 }), (asks) => {
        for (const [v, u, r] of asks) {
          let expected: bigint | undefined;
          try {
            expected = countUnits(v, u, 'value', r);
          } catch {
            expected = undefined;
          }
          expect(gridUnits(v, u, r)).toBe(expected);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('keeps the answers of one unit and rounding apart from the others', () => {
    expect(gridUnits('1.05', '0.1', 'down')).toBe(10n);
    expect(gridUnits('1.05', '0.1', 'up')).toBe(11n);
    expect(gridUnits('1.05', '0.1', undefined)).toBeUndefined();
    expect(gridUnits('1.05', '0.01', undefined)).toBe(105n);
  });
});

import { describe, expect, it } from 'vitest';
import { priceToTicks, sizeToSteps, stepsToSize, ticksToPrice } from '../../src/protocol/orderQuantities.js';

describe('order quantities', () => {
  it('converts decimal size and price to steps and ticks exactly', () => {
    expect(sizeToSteps('0.00015', '0.00001')).toBe(15n);
    expect(sizeToSteps('1.5', '0.001')).toBe(1500n);
    expect(priceToTicks('65000.5', '0.1')).toBe(650_005n);
    expect(priceToTicks('1677721.5', '0.1')).toBe(16_777_215n);
    expect(stepsToSize(15n, '0.00001')).toBe('0.00015');
    expect(ticksToPrice(650_005n, '0.1')).toBe('65000.5');
  });

  it('refuses off-grid values unless a rounding mode is named', () => {
    expect(() => sizeToSteps('0.000155', '0.00001')).toThrow(
      /^size: invalid value "0.000155"; allowed: a whole multiple of 0.00001/,
    );
    expect(sizeToSteps('0.000155', '0.00001', 'down')).toBe(15n);
    expect(sizeToSteps('0.000155', '0.00001', 'up')).toBe(16n);
    expect(priceToTicks('65000.55', '0.1', 'nearest')).toBe(650_006n);
    expect(priceToTicks('65000.54', '0.1', 'nearest')).toBe(650_005n);
  });

  it('refuses zero, negative and out-of-range quantities naming the range', () => {
    expect(() => sizeToSteps('0', '0.001')).toThrow('size_steps: invalid value 0; allowed: 1 to 4294967295');
    expect(() => sizeToSteps('-1', '0.001')).toThrow(/size_steps: invalid value -1000/);
    expect(() => sizeToSteps('4294967.296', '0.001')).toThrow(
      /size_steps: invalid value 4294967296; allowed: 1 to 4294967295/,
    );
    expect(() => priceToTicks('1677721.6', '0.1')).toThrow(
      'price_ticks: invalid value 16777216; allowed: 1 to 16777215',
    );
    expect(() => priceToTicks('0', '0.1')).toThrow(/price_ticks: invalid value 0/);
    expect(() => priceToTicks('1e3', '0.1')).toThrow(/^price: invalid value "1e3"/);
  });
});

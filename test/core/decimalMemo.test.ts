import { describe, expect, it } from 'vitest';
import { decimalOrUndefined, parseDecimal, rememberDecimal } from '../../src/core/decimal.js';
import { InvalidValueError } from '../../src/core/invalidValueError.js';

describe('parseDecimal remembers (one memo for the engine, the strategies and the decoders)', () => {
  it('parses once and answers the same frozen value for the same text', () => {
    const first = parseDecimal('7.250', 'size');
    expect(first).toEqual({ units: 7250n, scale: 3 });
    expect(Object.isFrozen(first)).toBe(true);
    expect(parseDecimal('7.250', 'size')).toBe(first);
    expect(decimalOrUndefined('7.250')).toBe(first);
  });

  it('throws naming the field for a text that is not a decimal, and remembers nothing for it', () => {
    expect(() => parseDecimal('1e3', 'price')).toThrow(InvalidValueError);
    expect(() => parseDecimal('1e3', 'price')).toThrow(/price/);
    expect(() => parseDecimal(12, 'price')).toThrow(InvalidValueError);
  });

  it('answers undefined rather than throwing for checks that refuse by their own rule', () => {
    for (const text of ['', ' 1', '1.', '.5', '1e-3', 12, undefined, null])
      expect(decimalOrUndefined(text)).toBeUndefined();
    expect(decimalOrUndefined('-0.5')).toEqual({ units: -5n, scale: 1 });
  });

  it('takes a remembered value for a text it has not seen, and keeps the first one for a text it has', () => {
    rememberDecimal('4242', { units: 42420n, scale: 1 });
    expect(parseDecimal('4242', 'price')).toEqual({ units: 42420n, scale: 1 });
    rememberDecimal('4242', { units: 424200n, scale: 2 });
    expect(parseDecimal('4242', 'price')).toEqual({ units: 42420n, scale: 1 });
  });
});

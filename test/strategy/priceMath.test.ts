import { describe, expect, it } from 'vitest';
import { changeBps, mid, offsetByBps } from '../../src/strategy/priceMath.js';

describe('priceMath', () => {
  it('offsets by basis points exactly', () => {
    expect(offsetByBps('65000', 10)).toBe('65065');
    expect(offsetByBps('65000', -10)).toBe('64935');
    expect(offsetByBps('0.1', 1)).toBe('0.10001');
    expect(offsetByBps('100', '2.5')).toBe('100.025');
    expect(offsetByBps('3200.01', 0)).toBe('3200.01');
  });

  it('measures changes in bps and midpoints exactly', () => {
    expect(changeBps('100', '101')).toBe('100');
    expect(changeBps('100', '99.5')).toBe('-50');
    expect(changeBps('3', '4')).toBe('3333.3333');
    expect(mid('64999.9', '65000.1')).toBe('65000');
    expect(mid('1', '2')).toBe('1.5');
  });
});

import { describe, expect, it } from 'vitest';
import { FixedWindowLimiter } from '../../src/sim/rest/fixedWindowLimiter.js';

describe('FixedWindowLimiter', () => {
  it('allows `limit` requests per key per window, then refuses until the window ends', () => {
    const limiter = new FixedWindowLimiter(2, 1000);
    expect([limiter.take('a', 0), limiter.take('a', 10), limiter.take('a', 999)]).toEqual([true, true, false]);
    expect(limiter.take('b', 999)).toBe(true);
    expect(limiter.take('a', 1000)).toBe(true);
  });
});

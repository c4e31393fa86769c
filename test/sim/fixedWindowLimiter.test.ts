import { describe, expect, it } from 'vitest';
import { FixedWindowLimiter } from '../../src/sim/rest/fixedWindowLimiter.js';

describe('FixedWindowLimiter', () => {
  it('allows `limit` requests per key per window, then refuses until the window ends', () => {
    const limiter = new FixedWindowLimiter(2, 1000);
    expect([limiter.take('a', 0), limiter.take('a', 10), limiter.take('a', 999)]).toEqual([true, true, false]);
    expect(limiter.take('b', 999)).toBe(true);
    expect(limiter.take('a', 1000)).toBe(true);
  });

  it("says how long until a key's window ends (a 429's Retry-After)", () => {
    const limiter = new FixedWindowLimiter(1, 10_000);
    expect(limiter.msUntilReset('a', 0)).toBe(0);
    limiter.take('a', 500);
    expect(limiter.msUntilReset('a', 2_000)).toBe(8_500);
    expect(limiter.msUntilReset('a', 20_000)).toBe(0);
  });
});

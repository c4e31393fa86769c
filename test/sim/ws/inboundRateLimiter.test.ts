import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { InboundRateLimiter } from '../../../src/sim/ws/inboundRateLimiter.js';

describe('InboundRateLimiter', () => {
  it('allows `limit` frames in a window and refuses the next', () => {
    const clock = new ManualClock();
    const limiter = new InboundRateLimiter(10, 1_000, clock);
    const verdicts = Array.from({ length: 11 }, () => limiter.allow());
    expect(verdicts.slice(0, 10).every(Boolean)).toBe(true);
    expect(verdicts[10]).toBe(false);
  });

  it('is a sliding window: capacity returns as the oldest accepted frames age out', async () => {
    const clock = new ManualClock();
    const limiter = new InboundRateLimiter(2, 1_000, clock);
    expect(limiter.allow()).toBe(true); // t=0
    await clock.advance(600);
    expect(limiter.allow()).toBe(true); // t=600
    expect(limiter.allow()).toBe(false);
    await clock.advance(399); // t=999: the frame at 0 is still inside the window
    expect(limiter.allow()).toBe(false);
    await clock.advance(1); // t=1000
    expect(limiter.allow()).toBe(true);
    expect(limiter.allow()).toBe(false); // the frame at 600 still counts
  });

  it('does not count refused frames against the client', async () => {
    const clock = new ManualClock();
    const limiter = new InboundRateLimiter(1, 1_000, clock);
    expect(limiter.allow()).toBe(true);
    for (let i = 0; i < 50; i++) expect(limiter.allow()).toBe(false);
    await clock.advance(1_000);
    expect(limiter.allow()).toBe(true);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { SlidingWindowLimiter } from '../../../src/venue/rest/slidingWindowLimiter.js';

/** When each arrival is granted; with `now`, a request tries `takeNow` first, as the REST client does. */
async function grantTimes(
  limiter: SlidingWindowLimiter,
  clock: ManualClock,
  arrivals: readonly number[],
  now: readonly boolean[] = [],
): Promise<number[]> {
  const granted: number[] = [];
  const start = clock.now();
  const pending: Promise<void>[] = [];
  for (const [i, at] of arrivals.entries()) {
    if (clock.now() - start < at) await clock.advance(at - (clock.now() - start));
    if (now[i] === true && limiter.takeNow()) granted[i] = clock.now() - start;
    else pending.push(limiter.take().then(() => void (granted[i] = clock.now() - start)));
  }
  await clock.advance(1_000_000);
  await Promise.all(pending);
  return granted;
}

describe('SlidingWindowLimiter', () => {
  it('lets a burst of up to the limit through at once, then waits for the window', async () => {
    const clock = new ManualClock(0);
    const granted = await grantTimes(new SlidingWindowLimiter(3, 1000, clock), clock, [0, 0, 0, 0, 0, 10]);
    expect(granted).toEqual([0, 0, 0, 1000, 1000, 1000]);
  });

  it('never grants more than the limit in any window, in arrival order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat(3000), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 8 }),
        async (gaps, limit) => {
          const clock = new ManualClock(0);
          let t = 0;
          const arrivals = gaps.map((g) => (t += g % 400));
          const granted = await grantTimes(new SlidingWindowLimiter(limit, 1000, clock), clock, arrivals);
          for (let i = 0; i < granted.length; i++) {
            expect(granted[i]!).toBeGreaterThanOrEqual(arrivals[i]!);
            if (i > 0) expect(granted[i]!).toBeGreaterThanOrEqual(granted[i - 1]!);
            if (i >= limit) expect(granted[i]! - granted[i - limit]!).toBeGreaterThanOrEqual(1000);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('grants with takeNow exactly what take would grant at once, and takes nothing when it would wait', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(3000), fc.boolean()), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 8 }),
        async (steps, limit) => {
          let t = 0;
          const arrivals = steps.map(([g]) => (t += g % 400));
          const clock = new ManualClock(0);
          const viaTake = await grantTimes(new SlidingWindowLimiter(limit, 1000, clock), clock, arrivals);
          const mixedClock = new ManualClock(0);
          const mixed = await grantTimes(
            new SlidingWindowLimiter(limit, 1000, mixedClock),
            mixedClock,
            arrivals,
            steps.map(([, now]) => now),
          );
          expect(mixed).toEqual(viaTake);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('rejects with the abort reason while waiting', async () => {
    const clock = new ManualClock(0);
    const limiter = new SlidingWindowLimiter(1, 1000, clock);
    await limiter.take();
    const controller = new AbortController();
    const waiting = limiter.take(controller.signal);
    controller.abort(new Error('shutdown'));
    await expect(waiting).rejects.toThrow('shutdown');
  });

  it('refuses nonsense limits', () => {
    expect(() => new SlidingWindowLimiter(0, 1000)).toThrow(/limit/);
    expect(() => new SlidingWindowLimiter(5, 0)).toThrow(/windowMs/);
  });
});

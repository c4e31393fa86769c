import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { InvalidValueError } from '../../../src/core/invalidValueError.js';
import { TokenBucket, VENUE_REST_RATE_LIMIT } from '../../../src/venue/rest/tokenBucket.js';

describe('TokenBucket', () => {
  it('grants a burst up to capacity, then refills continuously', async () => {
    const clock = new ManualClock(0);
    const bucket = new TokenBucket({ capacity: 3, refillTokens: 1, refillIntervalMs: 100, clock });
    expect([bucket.tryTake(), bucket.tryTake(), bucket.tryTake(), bucket.tryTake()]).toEqual([true, true, true, false]);
    await clock.advance(99);
    expect(bucket.tryTake()).toBe(false);
    await clock.advance(1);
    expect(bucket.tryTake()).toBe(true);
    await clock.advance(10_000);
    expect(bucket.available()).toBe(3);
  });

  it('queues waiters in arrival order, each released when its token has refilled', async () => {
    const clock = new ManualClock(0);
    const bucket = new TokenBucket({ capacity: 1, refillTokens: 1, refillIntervalMs: 100, clock });
    const granted: [string, number][] = [];
    const take = (name: string) => bucket.take().then(() => granted.push([name, clock.now()]));
    const all = Promise.all([take('a'), take('b'), take('c')]);
    await clock.advance(150);
    expect(granted).toEqual([
      ['a', 0],
      ['b', 100],
    ]);
    await clock.advance(50);
    await all;
    expect(granted).toEqual([
      ['a', 0],
      ['b', 100],
      ['c', 200],
    ]);
  });

  it('gives the reservation back when a queued caller aborts', async () => {
    const clock = new ManualClock(0);
    const bucket = new TokenBucket({ capacity: 1, refillTokens: 1, refillIntervalMs: 100, clock });
    await bucket.take();
    const controller = new AbortController();
    const waiting = bucket.take(controller.signal);
    expect(bucket.available()).toBe(-1);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    expect(bucket.available()).toBe(0);
    await clock.advance(100);
    expect(bucket.tryTake()).toBe(true);
  });

  it('refuses to start when already aborted', async () => {
    const bucket = new TokenBucket({ capacity: 1, refillTokens: 1, refillIntervalMs: 100, clock: new ManualClock(0) });
    await expect(bucket.take(AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
    expect(bucket.available()).toBe(1);
  });

  it('keeps the venue default within 500 requests in any 10 s window', async () => {
    const clock = new ManualClock(0);
    const bucket = new TokenBucket({ ...VENUE_REST_RATE_LIMIT, clock });
    const grants: number[] = [];
    // A greedy caller that takes every token it can, for 30 s of virtual time in 10 ms steps.
    for (let t = 0; t <= 30_000; t += 10) {
      while (bucket.tryTake()) grants.push(clock.now());
      await clock.advance(10);
    }
    let worst = 0;
    for (let i = 0, j = 0; i < grants.length; i++) {
      while ((grants[i] ?? 0) - (grants[j] ?? 0) >= 10_000) j++;
      worst = Math.max(worst, i - j + 1);
    }
    expect(worst).toBeLessThanOrEqual(500);
    expect(grants.length).toBeGreaterThan(1300);
  });

  it('rejects nonsensical settings', () => {
    expect(() => new TokenBucket({ capacity: 0, refillTokens: 1, refillIntervalMs: 1 })).toThrow(InvalidValueError);
    expect(() => new TokenBucket({ capacity: 1, refillTokens: 0, refillIntervalMs: 1 })).toThrow(InvalidValueError);
  });
});

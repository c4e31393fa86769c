import { describe, expect, it } from 'vitest';
import { checkActionRate, fullBucket, recordAction } from '../../../src/engine/guards/actionRateLimit.js';
import { cancelAll } from '../../../src/engine/intents/intentBuilders.js';
import { ManualClock } from '../../../src/core/clock.js';
import { base, guardState, limits } from './guardFixture.js';

describe('action rate (2 per second, burst 2) on an injected clock', () => {
  it('lets the burst through, then says how long to wait, then refills', async () => {
    const clock = new ManualClock(1_000);
    let bucket = fullBucket(limits, clock.now());
    const check = () =>
      checkActionRate(guardState({ actionBucket: bucket, nowMs: clock.now() }), cancelAll(base), limits);

    for (let i = 0; i < 2; i++) {
      expect(check()).toEqual({ kind: 'allow' });
      bucket = recordAction(bucket, clock.now(), limits);
    }
    expect(check()).toMatchObject({ kind: 'wait', retryAfterMs: 500 });
    await clock.advance(499);
    expect(check()).toMatchObject({ kind: 'wait', retryAfterMs: 1 });
    await clock.advance(1);
    expect(check()).toEqual({ kind: 'allow' });
    bucket = recordAction(bucket, clock.now(), limits);
    expect(check()).toMatchObject({ kind: 'wait', retryAfterMs: 500 });
    await clock.advance(10_000);
    expect(bucket.milliTokens).toBe(0);
    bucket = recordAction(bucket, clock.now(), limits); // refill is capped at the burst
    expect(bucket.milliTokens).toBe(1000);
  });

  it('never lets more than burst + rate × t actions through in t', () => {
    let bucket = fullBucket(limits, 0);
    let sent = 0;
    for (let t = 0; t <= 10_000; t += 7) {
      const state = guardState({ actionBucket: bucket, nowMs: t });
      if (checkActionRate(state, cancelAll(base), limits).kind === 'allow') {
        bucket = recordAction(bucket, t, limits);
        sent++;
      }
    }
    expect(sent).toBeLessThanOrEqual(2 + 2 * 10);
    expect(sent).toBeGreaterThanOrEqual(2 * 10);
  });
});

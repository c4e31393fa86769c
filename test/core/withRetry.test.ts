import { describe, expect, it } from 'vitest';
import { exponentialBackoff, withRetry } from '../../src/core/withRetry.js';
import { ManualClock } from '../../src/core/clock.js';

describe('withRetry', () => {
  it('retries retryable failures with the given delays, in virtual time', async () => {
    const clock = new ManualClock(0);
    const seen: number[] = [];
    const run = withRetry(
      async (attempt) => {
        seen.push(clock.now());
        if (attempt < 3) throw new Error(`transient ${attempt}`);
        return 'ok';
      },
      { attempts: 5, delayMs: (n) => n * 100, shouldRetry: () => true, clock },
    );
    await clock.advance(1000);
    await expect(run).resolves.toBe('ok');
    expect(seen).toEqual([0, 100, 300]);
  });

  it('stops at the first non-retryable error and keeps it as thrown', async () => {
    const fatal = new Error('fatal');
    let calls = 0;
    await expect(
      withRetry(
        async () => {
          calls++;
          throw fatal;
        },
        { attempts: 5, delayMs: () => 0, shouldRetry: (e) => e !== fatal },
      ),
    ).rejects.toBe(fatal);
    expect(calls).toBe(1);
  });

  it('gives up after the attempt budget', async () => {
    let calls = 0;
    await expect(
      withRetry(
        async () => {
          calls++;
          throw new Error(`try ${calls}`);
        },
        { attempts: 3, delayMs: () => 0, shouldRetry: () => true },
      ),
    ).rejects.toThrow('try 3');
    expect(calls).toBe(3);
  });

  it('aborts a pending delay when the signal fires', async () => {
    const clock = new ManualClock(0);
    const controller = new AbortController();
    const run = withRetry(
      async () => {
        throw new Error('again');
      },
      { attempts: 10, delayMs: () => 1000, shouldRetry: () => true, clock, signal: controller.signal },
    );
    await new Promise((r) => setImmediate(r));
    controller.abort(new Error('shutdown'));
    await expect(run).rejects.toThrow('shutdown');
  });

  it('backs off exponentially with a cap and bounded jitter', () => {
    const noJitter = exponentialBackoff({ baseMs: 100, maxMs: 1000, jitter: 0 });
    expect([1, 2, 3, 4, 5].map(noJitter)).toEqual([100, 200, 400, 800, 1000]);
    const fullLow = exponentialBackoff({ baseMs: 100, maxMs: 1000, jitter: 0.5, random: () => 1 });
    expect(fullLow(2)).toBe(100);
  });
});

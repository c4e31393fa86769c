import { describe, expect, it } from 'vitest';
import { AbortedError, abortError } from '../../src/core/abortError.js';
import { ManualClock } from '../../src/core/clock.js';

describe('abort errors', () => {
  it('passes an Error reason through unchanged, so callers can compare it by identity', () => {
    const reason = new Error('shutdown');
    expect(abortError(reason)).toBe(reason);
    const timeout = new DOMException('timed out', 'TimeoutError');
    expect(abortError(timeout)).toBe(timeout);
  });

  it('carries any other reason as the cause of an AbortedError that prints as the reason did', () => {
    const error = abortError('stop');
    expect(error).toBeInstanceOf(AbortedError);
    expect(error.cause).toBe('stop');
    expect(String(error)).toBe('stop');
    expect((error as AbortedError).code).toBe('ABORTED');
    const shapeless = abortError(Object.create(null));
    expect(String(shapeless)).toBe('[object Object]');
  });

  it("makes the manual clock's sleep reject with an Error, before and after it started", async () => {
    const clock = new ManualClock(0);
    const controller = new AbortController();
    const sleeping = clock.sleep(1_000, controller.signal);
    controller.abort(42);
    await expect(sleeping).rejects.toMatchObject({ code: 'ABORTED', cause: 42 });
    const reason = new Error('gone');
    await expect(clock.sleep(1_000, AbortSignal.abort(reason))).rejects.toBe(reason);
  });
});

import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/core/clock.js';
import { StartupDeadlineError } from '../../../../src/runtime/bot/startup/startupDeadlineError.js';
import { untilDeadline, type UntilDeadlineOptions } from '../../../../src/runtime/bot/startup/untilDeadline.js';
import { VenueError } from '../../../../src/venue/venueError.js';
import { VenueTransportError } from '../../../../src/venue/venueTransportError.js';

function unavailable(retryAfterMs?: number): VenueError {
  return new VenueError({
    httpStatus: 503,
    rawBody: JSON.stringify({ error: { code: 'Unavailable', message: 'Unavailable: restarting' } }),
    endpoint: 'GET /v1/markets',
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}
const refused = new VenueTransportError({
  kind: 'ConnectionFailed',
  endpoint: 'GET /v1/markets',
  cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }),
});

/** Options in virtual time; the backoff is the full step (random 0): 1 s, 2 s, 4 s, 8 s, 10 s, ... */
function setup(deadlineMs: number, signal?: AbortSignal) {
  const clock = new ManualClock(0);
  const warnings: { object: Record<string, unknown>; message: string }[] = [];
  const o: UntilDeadlineOptions = {
    deadlineMs,
    clock,
    log: { warn: (object, message) => warnings.push({ object: object as Record<string, unknown>, message }) },
    backoff: { baseMs: 1_000, maxMs: 10_000, random: () => 0 },
    ...(signal === undefined ? {} : { signal }),
  };
  return { clock, warnings, o };
}

/** A step that fails with each of `failures` in turn, then answers `value`. */
function flaky<T>(failures: readonly unknown[], value: T) {
  const signals: AbortSignal[] = [];
  let runs = 0;
  const step = async (signal: AbortSignal): Promise<T> => {
    signals.push(signal);
    const failure = failures[runs];
    runs += 1;
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- scripted failures include non-Error values
    if (failure !== undefined) throw failure;
    return value;
  };
  return { step, runs: () => runs, signals };
}

describe('untilDeadline', () => {
  it('runs the step again while it fails transiently, logging each wait with what it waits for', async () => {
    const { clock, warnings, o } = setup(120_000);
    const s = flaky([unavailable(), refused, unavailable()], 'markets');
    const pending = untilDeadline('reading markets', s.step, o);
    await clock.advance(1_000 + 2_000 + 4_000);
    expect(await pending).toBe('markets');
    expect(s.runs()).toBe(4);
    expect(warnings.map((w) => w.message)).toEqual([
      'waiting for the venue: reading markets (attempt 1, retry in 1.0 s, 120 s left)',
      'waiting for the venue: reading markets (attempt 2, retry in 2.0 s, 119 s left)',
      'waiting for the venue: reading markets (attempt 3, retry in 4.0 s, 117 s left)',
    ]);
    expect(warnings[1]?.object).toMatchObject({
      step: 'reading markets',
      attempt: 2,
      delayMs: 2_000,
      reason: expect.stringMatching(/ECONNREFUSED/),
    });
    expect(s.signals.every((signal) => !signal.aborted)).toBe(true);
  });

  it("honours the venue's Retry-After", async () => {
    const { clock, o } = setup(120_000);
    const s = flaky([unavailable(30_000)], 'ok');
    const pending = untilDeadline('reading markets', s.step, o);
    await clock.advance(29_999);
    expect(s.runs()).toBe(1);
    await clock.advance(1);
    expect(await pending).toBe('ok');
  });

  it('throws any other failure at once', async () => {
    const { clock, warnings, o } = setup(120_000);
    const invalid = new VenueError({
      httpStatus: 400,
      rawBody: 'InvalidArgument: bad account',
      endpoint: 'GET /v1/markets',
    });
    const s = flaky([invalid], 'never');
    await expect(untilDeadline('reading markets', s.step, o)).rejects.toBe(invalid);
    expect(s.runs()).toBe(1);
    expect(warnings).toEqual([]);
    expect(clock.pendingSleeps).toBe(0);
  });

  it('uses the whole deadline (one last try a margin before it), then gives up with one error naming the step, the last failure and what to do', async () => {
    const { clock, o } = setup(10_000);
    const s = flaky([unavailable(), unavailable(), unavailable(), unavailable(), refused], 'never');
    const pending = untilDeadline('reading markets', s.step, o).catch((e: unknown) => e);
    // Runs at 0, 1 s, 3 s and 7 s; the backoff's next (15 s) is past the deadline, so the last
    // try starts at 9 s, 1 s before it; after that only the margin is left.
    await clock.advance(10_000);
    const error = await pending;
    expect(s.runs()).toBe(5);
    expect(error).toBeInstanceOf(StartupDeadlineError);
    const e = error as StartupDeadlineError;
    expect(e.message).toBe(
      'gave up reading markets after 9.0 s (5 attempts): GET /v1/markets could not reach the venue (ECONNREFUSED); no definite answer',
    );
    expect(e.lastFailure).toBe(refused);
    expect(e.hints[0]).toMatch(/venue\.rest_url/);
    expect(e.hints[1]).toMatch(/venue\.startup_deadline_ms \(now 10000\)/);
    expect(clock.pendingSleeps).toBe(0);
  });

  it('cuts a step still running at the deadline, reporting the failure it was waiting out', async () => {
    const { clock, o } = setup(5_000);
    let runs = 0;
    const step = (signal: AbortSignal): Promise<never> => {
      runs += 1;
      if (runs === 1) return Promise.reject(unavailable());
      // Hangs like a read retrying inside the transport, until its signal aborts.
      return new Promise((_resolve, reject) => {
        signal.addEventListener('abort', () =>
          reject(
            new VenueTransportError({
              kind: 'Aborted',
              endpoint: 'GET /v1/markets',
              requestSent: false,
              cause: refused,
            }),
          ),
        );
      });
    };
    const pending = untilDeadline('reading markets', step, o).catch((e: unknown) => e);
    await clock.advance(5_000);
    const error = await pending;
    expect(error).toBeInstanceOf(StartupDeadlineError);
    expect((error as StartupDeadlineError).message).toMatch(
      /^gave up reading markets after 5\.0 s \(2 attempts\): GET \/v1\/markets could not reach the venue/,
    );
  });

  it("stops at once with the caller's reason when the caller aborts, not with a deadline error", async () => {
    const controller = new AbortController();
    const { clock, o } = setup(120_000, controller.signal);
    const s = flaky([unavailable()], 'never');
    const pending = untilDeadline('reading markets', s.step, o).catch((e: unknown) => e);
    await clock.advance(500);
    const reason = new Error('shutdown');
    controller.abort(reason);
    expect(await pending).toBe(reason);
    expect(s.runs()).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { createRestClient, type RestClientOptions } from '../../../src/venue/rest/restClient.js';
import type { RestRetryEvent } from '../../../src/venue/rest/restTransport.js';
import { VenueSchemaError } from '../../../src/venue/rest/venueSchemaError.js';
import { VenueError } from '../../../src/venue/venueError.js';
import { VenueTransportError } from '../../../src/venue/venueTransportError.js';

const ACCOUNT = '0x1111111111111111111111111111111111111111';
const MARKETS = {
  markets: [
    {
      market_id: '1',
      mark_price: '1',
      config: { name: 'BTC/USDC', step_size: '0.001', step_price: '0.1', min_order_size: '0.001' },
    },
  ],
};
const PERMIT = {
  account: ACCOUNT,
  signer: ACCOUNT,
  nonce_anchor: '1',
  nonce_bitmap_index: 0,
  deadline: 1_700_000_060,
  signature: Buffer.alloc(65, 3).toString('base64'),
};

type Answer = { status: number; body?: unknown; headers?: Record<string, string> } | 'refused';

const unavailable: Answer = {
  status: 503,
  body: { error: { code: 'Unavailable', message: 'Unavailable: restarting' } },
};
const ok: Answer = { status: 200, body: { data: MARKETS } };

/** A fetch that answers from a script (the last answer repeats) and counts its calls. */
function scriptedFetch(answers: readonly Answer[]): { fetch: typeof fetch; calls: () => number } {
  let calls = 0;
  const fake = async (): Promise<Response> => {
    const answer = answers[Math.min(calls, answers.length - 1)]!;
    calls += 1;
    if (answer === 'refused')
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
      });
    return new Response(answer.body === undefined ? '' : JSON.stringify(answer.body), {
      status: answer.status,
      headers: answer.headers ?? {},
    });
  };
  return { fetch: fake, calls: () => calls };
}

/** A client in virtual time whose backoff is the full step (random 0): 250, 500, 1000 ms, ... */
function client(answers: readonly Answer[], extra: Partial<RestClientOptions> = {}) {
  const clock = new ManualClock(Date.parse('2026-10-21T07:28:00Z'));
  const script = scriptedFetch(answers);
  const retries: RestRetryEvent[] = [];
  const rest = createRestClient({
    baseUrl: 'http://venue.test',
    timeoutMs: 1_000,
    rateLimit: false,
    fetch: script.fetch,
    clock,
    readBackoff: { baseMs: 250, maxMs: 5_000, random: () => 0 },
    onRetry: (event) => retries.push(event),
    ...extra,
  });
  return { rest, clock, calls: script.calls, retries };
}

describe('REST reads are retried by the venue table', () => {
  it('sends a read again after 503s and a refused connection, with exponential backoff, and reports each wait', async () => {
    const { rest, clock, calls, retries } = client([unavailable, 'refused', unavailable, ok]);
    const pending = rest.markets();
    await clock.advance(0);
    expect(calls()).toBe(1);
    await clock.advance(249);
    expect(calls()).toBe(1);
    await clock.advance(1);
    expect(calls()).toBe(2);
    await clock.advance(500 + 1_000);
    expect((await pending).markets[0]?.market_id).toBe('1');
    expect(calls()).toBe(4);
    expect(retries.map((r) => [r.endpoint, r.attempt, r.delayMs])).toEqual([
      ['GET /v1/markets', 1, 250],
      ['GET /v1/markets', 2, 500],
      ['GET /v1/markets', 3, 1_000],
    ]);
    expect(retries[0]?.reason).toMatch(/HTTP 503: Unavailable: restarting/);
    expect(retries[1]?.reason).toMatch(/ECONNREFUSED/);
  });

  it('draws each delay with full jitter between 0 and the step', async () => {
    const { rest, clock, retries } = client([unavailable, unavailable, ok], {
      readBackoff: { baseMs: 1_000, maxMs: 5_000, random: () => 0.75 },
    });
    const pending = rest.markets();
    await clock.advance(250 + 500);
    await pending;
    expect(retries.map((r) => r.delayMs)).toEqual([250, 500]);
  });

  it('waits what Retry-After says on a 429 (seconds) and a 503 (HTTP date) instead of the backoff', async () => {
    const limited: Answer = {
      status: 429,
      body: { error: { code: 'ResourceExhausted', message: 'ResourceExhausted: rate limited' } },
      headers: { 'retry-after': '3' },
    };
    const later: Answer = { ...unavailable, headers: { 'retry-after': 'Wed, 21 Oct 2026 07:28:10 GMT' } };
    const { rest, clock, calls, retries } = client([limited, later, ok]);
    const pending = rest.markets();
    await clock.advance(2_999);
    expect(calls()).toBe(1);
    await clock.advance(1);
    expect(calls()).toBe(2);
    // The date is 10 s after the start, and 3 s have passed.
    await clock.advance(6_999);
    expect(calls()).toBe(2);
    await clock.advance(1);
    await pending;
    expect(retries.map((r) => r.delayMs)).toEqual([3_000, 7_000]);
  });

  it('gives up with the last failure when the next attempt could not start before the deadline', async () => {
    const { rest, clock, calls } = client([unavailable, unavailable, { status: 502, body: 'bad gateway' }], {
      readDeadlineMs: 1_000,
    });
    const pending = rest.markets().catch((e: unknown) => e);
    // Attempts at 0, 250 and 750 ms; the next would be at 1750 ms, past the deadline.
    await clock.advance(5_000);
    const error = await pending;
    expect(calls()).toBe(3);
    expect(error).toBeInstanceOf(VenueError);
    expect((error as VenueError).httpStatus).toBe(502);
  });

  it('uses the whole deadline: when the backoff would run past it, one last attempt starts a margin (a quarter, at most 1 s) before it', async () => {
    const { rest, clock, calls } = client([unavailable], { readDeadlineMs: 1_600 });
    const pending = rest.markets().catch((e: unknown) => e);
    // Attempts at 0, 250 and 750 ms; the backoff's next (1750 ms) is past the deadline, so the
    // last starts at 1200 ms, 400 ms before it; after that only the margin is left.
    await clock.advance(1_199);
    expect(calls()).toBe(3);
    await clock.advance(1);
    expect(calls()).toBe(4);
    await clock.advance(5_000);
    expect(await pending).toBeInstanceOf(VenueError);
    expect(calls()).toBe(4);
  });

  it('takes a per-call deadline; 0 is a single attempt', async () => {
    const { rest, clock, calls } = client([unavailable, ok]);
    const pending = rest.markets({ deadlineMs: 0 }).catch((e: unknown) => e);
    await clock.advance(1_000);
    expect(await pending).toBeInstanceOf(VenueError);
    expect(calls()).toBe(1);
  });

  it('never retries a POST, a refusal, an unreadable answer or the 500 of an account read', async () => {
    const cases: [
      Answer,
      (rest: ReturnType<typeof createRestClient>) => Promise<unknown>,
      typeof VenueError | typeof VenueSchemaError,
    ][] = [
      [unavailable, (rest) => rest.cancelAll({ market_id: 1, permit: PERMIT }), VenueError],
      [
        { status: 400, body: { error: { code: 'InvalidArgument', message: 'InvalidArgument: bad' } } },
        (rest) => rest.markets(),
        VenueError,
      ],
      [{ status: 200, body: { data: { markets: 'nope' } } }, (rest) => rest.markets(), VenueSchemaError],
      [
        {
          status: 500,
          body: { error: { code: 'Internal', message: `Internal: account ${ACCOUNT} has no on-chain state` } },
        },
        (rest) => rest.crossMarginBalance(ACCOUNT),
        VenueError,
      ],
    ];
    for (const [answer, call, type] of cases) {
      const { rest, clock, calls } = client([answer, ok]);
      const pending = call(rest).catch((e: unknown) => e);
      await clock.advance(10_000);
      expect(await pending).toBeInstanceOf(type);
      expect(calls()).toBe(1);
    }
  });

  it('stops waiting at once when the caller aborts, without sending again', async () => {
    const { rest, clock, calls } = client([unavailable, ok]);
    const controller = new AbortController();
    const pending = rest.markets({ signal: controller.signal }).catch((e: unknown) => e);
    await clock.advance(100);
    controller.abort();
    const error = await pending;
    expect(error).toBeInstanceOf(VenueTransportError);
    expect((error as VenueTransportError).kind).toBe('Aborted');
    expect((error as VenueTransportError).requestSent).toBe(false);
    // The failure it was waiting out is kept as the cause.
    expect((error as VenueTransportError).cause).toBeInstanceOf(VenueError);
    await clock.advance(1_000);
    expect(calls()).toBe(1);
    expect(clock.pendingSleeps).toBe(0);
  });

  it('takes a rate-limiter token for every attempt', async () => {
    let tokens = 0;
    const { rest, clock } = client([unavailable, unavailable, ok], {
      rateLimit: { take: async () => void (tokens += 1) },
    });
    const pending = rest.markets();
    await clock.advance(250 + 500);
    await pending;
    expect(tokens).toBe(3);
  });
});

describe('a read cut short by its caller while retrying', () => {
  it('carries the failure it was waiting out, not only the abort', async () => {
    let calls = 0;
    let hang: (() => void) | undefined;
    const fake = (async (_url: string, init: RequestInit): Promise<Response> => {
      calls += 1;
      if (calls === 1)
        throw new TypeError('fetch failed', {
          cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
        });
      // The second attempt is in flight when the caller gives up.
      return new Promise((_resolve, reject) => {
        hang = () => reject(new DOMException('aborted', 'AbortError'));
        init.signal?.addEventListener('abort', () => hang?.());
      });
    }) as unknown as typeof fetch;
    const clock = new ManualClock(0);
    const rest = createRestClient({
      baseUrl: 'http://venue.test',
      timeoutMs: 60_000,
      rateLimit: false,
      fetch: fake,
      clock,
      readBackoff: { baseMs: 250, maxMs: 5_000, random: () => 0 },
    });
    const caller = new AbortController();
    const pending = rest.markets({ signal: caller.signal }).catch((error: unknown) => error);
    await clock.advance(250);
    expect(calls).toBe(2);
    caller.abort(new DOMException('the deadline passed', 'TimeoutError'));
    const error = await pending;
    expect(error).toBeInstanceOf(VenueTransportError);
    expect(error).toMatchObject({ kind: 'Aborted', cause: expect.objectContaining({ kind: 'ConnectionFailed' }) });
  });
});

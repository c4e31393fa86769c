import { describe, expect, it } from 'vitest';
import { createRestClient } from '../../../src/venue/rest/restClient.js';
import type { DirectRequest, DirectSender } from '../../../src/venue/rest/restExchange.js';
import { VenueError } from '../../../src/venue/venueError.js';
import { VenueTransportError } from '../../../src/venue/venueTransportError.js';

const ACCOUNT = `0x${'ab'.repeat(20)}` as const;
const NONCE_ANSWER = JSON.stringify({ data: { nonce_anchor: '3', current_bitmap_index: 7, bitmap: '0' } });

function clientOf(direct: DirectSender): ReturnType<typeof createRestClient> {
  return createRestClient({
    baseUrl: 'http://venue.invalid/',
    timeoutMs: 1_000,
    rateLimit: false,
    readDeadlineMs: 0,
    direct,
  });
}

describe('a REST client with a direct sender (a venue in this process)', () => {
  it('hands it the path after the base address, the headers and no body for a GET, and decodes its answer by the schema', async () => {
    const seen: DirectRequest[] = [];
    const rest = clientOf((request) => {
      seen.push(request);
      return Promise.resolve({ status: 200, text: NONCE_ANSWER, retryAfter: null });
    });
    const state = await rest.nonceState(ACCOUNT);
    expect(state).toEqual({ nonce_anchor: 3n, current_bitmap_index: 7, bitmap: '0' });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'GET', body: undefined });
    expect(seen[0]?.path.toLowerCase()).toBe(`/v1/nonce-state/${ACCOUNT}`);
    expect(Object.keys(seen[0]!.headers).length).toBeGreaterThan(0);
  });

  it('decodes an answer handed over as its value as it decodes the text, and tells an observer the text', async () => {
    const observed: string[] = [];
    const rest = createRestClient({
      baseUrl: 'http://venue.invalid/',
      timeoutMs: 1_000,
      rateLimit: false,
      readDeadlineMs: 0,
      direct: () => Promise.resolve({ status: 200, json: JSON.parse(NONCE_ANSWER) as unknown, retryAfter: null }),
      onExchange: (exchange) => observed.push(exchange.answer),
    });
    expect(await rest.nonceState(ACCOUNT)).toEqual(
      await clientOf(() => Promise.resolve({ status: 200, text: NONCE_ANSWER, retryAfter: null })).nonceState(ACCOUNT),
    );
    expect(observed).toEqual([NONCE_ANSWER]);
    const refused = clientOf(() => Promise.resolve({ status: 400, json: { error: 'no' }, retryAfter: null }));
    await expect(refused.nonceState(ACCOUNT)).rejects.toMatchObject({ httpStatus: 400, rawBody: '{"error":"no"}' });
  });

  it("turns a refusal into the venue's error with its Retry-After, as over HTTP", async () => {
    const rest = clientOf(() =>
      Promise.resolve({ status: 429, text: JSON.stringify({ error: 'slow down' }), retryAfter: '2' }),
    );
    const error = await rest.nonceState(ACCOUNT).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VenueError);
    expect(error).toMatchObject({ httpStatus: 429, retryAfterMs: 2_000 });
  });

  it("turns a throw into a transport failure: Aborted when the caller's signal is, else ConnectionFailed", async () => {
    const rest = clientOf(() => Promise.reject(new Error('venue gone')));
    await expect(rest.nonceState(ACCOUNT)).rejects.toMatchObject({ kind: 'ConnectionFailed' });
    const stop = new AbortController();
    const waiting = clientOf(
      (request) =>
        new Promise((_, reject) =>
          request.signal?.addEventListener('abort', () =>
            reject(new Error('stopped', { cause: request.signal?.reason })),
          ),
        ),
    );
    const call = waiting.nonceState(ACCOUNT, { signal: stop.signal }).catch((e: unknown) => e);
    stop.abort(new Error('shutting down'));
    const error = await call;
    expect(error).toBeInstanceOf(VenueTransportError);
    expect(error).toMatchObject({ kind: 'Aborted' });
  });
});

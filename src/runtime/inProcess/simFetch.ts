import type { Clock } from '../../core/clock.js';
import { parseJsonBody } from '../../sim/rest/readJsonBody.js';
import { answerText, type SimRequestAnswerer } from '../../sim/rest/simRestServer.js';

export interface SimFetchOptions {
  readonly answer: SimRequestAnswerer;
  readonly clock: Clock;
  /** One-way delay in virtual ms: the request reaches the venue this long after it left, the answer as long again. */
  readonly latencyMs: () => number;
}

/** The kit's client address for the simulator's per-IP rate limit. */
const KIT_IP = '127.0.0.1';

/**
 * A `fetch` that hands each request to the simulator's own request handling (routing, the per-IP
 * rate limit, body parsing, handlers, envelopes) in this process, so the bot's REST client (its
 * limiter, schemas and error classification) runs unchanged, with the wire's latency in virtual time.
 */
export function simFetch(o: SimFetchOptions): typeof fetch {
  const delay = async (signal: AbortSignal | undefined): Promise<void> => {
    const ms = o.latencyMs();
    if (ms > 0) await o.clock.sleep(ms, signal);
  };
  return async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const headers = new Headers(init?.headers);
    const body = typeof init?.body === 'string' ? Buffer.from(init.body, 'utf8') : Buffer.alloc(0);
    const signal = init?.signal ?? undefined;
    await delay(signal);
    const { response, requestId } = await o.answer({
      method: init?.method ?? 'GET',
      url: `${url.pathname}${url.search}`,
      ip: KIT_IP,
      authorization: headers.get('authorization') ?? undefined,
      readBody: (limit) => Promise.resolve(parseJsonBody(body, limit)),
      discardBody: () => Promise.resolve(),
    });
    await delay(signal);
    signal?.throwIfAborted();
    return new Response(answerText(response, requestId), {
      status: response.status,
      headers: { ...response.headers, 'content-type': 'application/json; charset=utf-8' },
    });
  };
}

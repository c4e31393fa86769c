import type { Clock } from '../../core/clock.js';
import { parseJsonBodyText } from '../../sim/rest/readJsonBody.js';
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
    // The body stays text: its trip through UTF-8 bytes and back changed nothing but the time.
    const body = typeof init?.body === 'string' ? init.body : '';
    const signal = init?.signal ?? undefined;
    await delay(signal);
    const { response, requestId } = await o.answer({
      method: init?.method ?? 'GET',
      url: `${url.pathname}${url.search}`,
      ip: KIT_IP,
      authorization: headerOf(init?.headers, 'authorization'),
      readBody: (limit) => Promise.resolve(parseJsonBodyText(body, limit)),
      discardBody: () => Promise.resolve(),
    });
    await delay(signal);
    signal?.throwIfAborted();
    return answerOf(response.status, response.headers, answerText(response, requestId));
  };
}

/** A request header by its lower-case name; the REST client sends a plain record. */
function headerOf(headers: RequestInit['headers'], name: string): string | undefined {
  if (headers === undefined) return undefined;
  if (headers instanceof Headers || Array.isArray(headers)) return new Headers(headers).get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers))
    if (key.toLowerCase() === name) return typeof value === 'string' ? value : value.join(', ');
  return undefined;
}

/**
 * The answer as the REST client reads it (`status`, `ok`, `headers.get`, `text`, `json`): no
 * undici `Response`, whose body stream cost a replay more than the simulator's handling of the
 * request. Only the kit's own client reads it (`inProcessBot.ts`); it is not a general `fetch`.
 */
function answerOf(status: number, headers: Readonly<Record<string, string>> | undefined, text: string): Response {
  const fields = new Map<string, string>();
  for (const [key, value] of Object.entries(headers ?? {})) fields.set(key.toLowerCase(), value);
  fields.set('content-type', 'application/json; charset=utf-8');
  const answer = {
    status,
    ok: status >= 200 && status <= 299,
    headers: { get: (name: string): string | null => fields.get(name.toLowerCase()) ?? null },
    text: (): Promise<string> => Promise.resolve(text),
    json: (): Promise<unknown> => Promise.resolve(JSON.parse(text)),
  };
  return answer as unknown as Response;
}

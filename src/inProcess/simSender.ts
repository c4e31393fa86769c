import type { Clock } from '../core/clock.js';
import type { DirectSender } from '../venue/rest/restExchange.js';
import { parseJsonBodyText } from '../sim/rest/readJsonBody.js';
import { answerText } from '../sim/rest/answerText.js';
import type { SimRequestAnswerer } from '../sim/rest/simRestServer.js';

export interface SimSenderOptions {
  readonly answer: SimRequestAnswerer;
  readonly clock: Clock;
  /** One-way delay in virtual ms: the request reaches the venue this long after it left, the answer as long again. */
  readonly latencyMs: () => number;
}

/** The kit's client address for the simulator's per-IP rate limit. */
const KIT_IP = '127.0.0.1';

/**
 * The REST client's direct sender to the simulator's own request handling (routing, the per-IP
 * rate limit, body parsing, handlers, envelopes) in this process, so the bot's REST client (its
 * limiter, schemas and error classification) runs unchanged, with the wire's latency in virtual
 * time. No fetch shapes between them: a `fetch` here cost a URL, an abort controller, a timer and
 * a `Response`-like answer per request, about 2 % of a replay.
 */
export function simSender(o: SimSenderOptions): DirectSender {
  const delay = async (signal: AbortSignal | undefined): Promise<void> => {
    const ms = o.latencyMs();
    if (ms > 0) await o.clock.sleep(ms, signal);
  };
  return async (request) => {
    // The body stays text: its trip through UTF-8 bytes and back changed nothing but the time.
    const body = request.body ?? '';
    await delay(request.signal);
    const { response, requestId } = await o.answer({
      method: request.method,
      url: request.path,
      ip: KIT_IP,
      authorization: headerOf(request.headers, 'authorization'),
      readBody: (limit) => Promise.resolve(parseJsonBodyText(body, limit)),
      discardBody: () => Promise.resolve(),
    });
    await delay(request.signal);
    request.signal?.throwIfAborted();
    return {
      status: response.status,
      text: answerText(response, requestId),
      retryAfter: headerOf(response.headers, 'retry-after') ?? null,
    };
  };
}

/** A header by its lower-case name. */
function headerOf(headers: Readonly<Record<string, string>> | undefined, name: string): string | undefined {
  if (headers === undefined) return undefined;
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return value;
  return undefined;
}

import type { Clock } from '../core/clock.js';
import { copyAsJson, type JsonCopy } from '../core/jsonCopy.js';
import { isJsonObject } from '../core/jsonObject.js';
import type { DirectAnswer, DirectRequest, DirectSender } from '../venue/rest/restExchange.js';
import { parseJsonBodyText, type BodyResult } from '../sim/rest/readJsonBody.js';
import { answerText } from '../sim/rest/answerText.js';
import type { SimHttpRequest } from '../sim/rest/simHttpRequest.js';
import type { SimAnswer, SimRequestAnswerer } from '../sim/rest/simRestServer.js';

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
 * rate limit, body checks, handlers, envelopes) in this process, so the bot's REST client (its
 * limiter, schemas and error classification) runs unchanged, with the wire's latency in virtual
 * time. No fetch shapes between them, and no JSON text where a value does: the body and a 2xx
 * answer cross as the values their texts would parse to (`copyAsJson`), which the simulator's
 * body checks and the client's schemas read as they read a parsed text.
 */
export function simSender(o: SimSenderOptions): DirectSender {
  return (request) => send(o, request);
}

async function send(o: SimSenderOptions, request: DirectRequest): Promise<DirectAnswer> {
  const there = o.latencyMs();
  if (there > 0) await o.clock.sleep(there, request.signal);
  const answer = await o.answer(new DirectSimRequest(request));
  const back = o.latencyMs();
  if (back > 0) await o.clock.sleep(back, request.signal);
  request.signal?.throwIfAborted();
  return answerOf(answer);
}

/**
 * The answer as the client reads it: a 2xx as the value of its text (the envelope with its
 * `request_id` last, as `answerText` writes it), any other answer, or a body only its text
 * writes, as that text.
 */
function answerOf({ response, requestId }: SimAnswer): DirectAnswer {
  const retryAfter = headerOf(response.headers, 'retry-after') ?? null;
  const { status } = response;
  // A body naming `request_id` itself keeps that key's place in the text: the text's way.
  const copy =
    status >= 200 && status <= 299 && !Object.hasOwn(response.body, 'request_id')
      ? copyAsJson(response.body)
      : undefined;
  if (copy === undefined || !isJsonObject(copy.value))
    return { status, text: answerText(response, requestId), retryAfter };
  // The copy is fresh: `request_id` goes last, as in `{ ...body, request_id }`.
  copy.value['request_id'] = requestId;
  return { status, json: copy.value, retryAfter };
}

/** One request as the simulator's handling reads it: a class, so no closure is made per request. */
class DirectSimRequest implements SimHttpRequest {
  readonly method: string;
  readonly url: string;
  readonly ip = KIT_IP;
  readonly authorization: string | undefined;
  private readonly body: JsonCopy | string | undefined;

  constructor(request: DirectRequest) {
    this.method = request.method;
    this.url = request.path;
    this.authorization = headerOf(request.headers, 'authorization');
    this.body = request.body;
  }

  readBody(limit: number): Promise<BodyResult> {
    return Promise.resolve(bodyResult(this.body, limit));
  }

  discardBody(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * What the simulator's body checks make of the body: a JSON object whose text is surely within the
 * limit is taken as it is (its checks could only accept it); anything else goes through them as
 * its text.
 */
function bodyResult(body: JsonCopy | string | undefined, limit: number): BodyResult {
  if (body === undefined) return parseJsonBodyText('', limit);
  if (typeof body === 'string') return parseJsonBodyText(body, limit);
  if (body.maxBytes <= limit && isJsonObject(body.value)) return { ok: true, value: body.value };
  return parseJsonBodyText(JSON.stringify(body.value), limit);
}

/** A header by its lower-case name. */
function headerOf(headers: Readonly<Record<string, string>> | undefined, name: string): string | undefined {
  if (headers === undefined) return undefined;
  for (const key in headers) if (key.toLowerCase() === name) return headers[key];
  return undefined;
}

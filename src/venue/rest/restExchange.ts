import type { z } from 'zod';
import { copyAsJson, type JsonCopy } from '../../core/jsonCopy.js';
import { VenueError } from '../venueError.js';
import { VenueTransportError } from '../venueTransportError.js';
import { bodyJson } from './actionBodies.js';
import { fastAnswerDecoder } from './fastAnswers.js';
import { HttpTimeout, nodeHttpSend, type HttpAnswer } from './nodeHttpClient.js';
import { parseRetryAfter } from './retryAfter.js';
import type { RequestLimiter } from './slidingWindowLimiter.js';
import { failureFromZod, type WireDecodeFailureSink } from '../wireDecodeFailure.js';
import { schemaIssues, VenueSchemaError } from './venueSchemaError.js';

/** What one exchange needs, resolved by the transport (URL built, headers chosen). */
export interface ExchangeRequest<S extends z.ZodType> {
  readonly method: 'GET' | 'POST';
  readonly endpoint: string;
  readonly url: string;
  /** `url`'s path and query: what a direct sender is given. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: unknown;
  readonly responseSchema: S;
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
}

/**
 * One exchange as an observer sees it (the flight recorder): what was sent and what came back, as
 * text. `status` 0 with `failure` when no answer came.
 */
export interface ObservedExchange {
  readonly method: 'GET' | 'POST';
  /** Path and query. */
  readonly path: string;
  /** The request body as sent (JSON text); absent for a GET. */
  readonly body?: string;
  readonly sentAt: number;
  readonly status: number;
  readonly answer: string;
  readonly failure?: 'Timeout' | 'Aborted' | 'ConnectionFailed';
}

export type RestExchangeObserver = (exchange: ObservedExchange) => void;

/**
 * A request as a sender that is not HTTP reads it. The body is the value its JSON text would carry
 * (`copyAsJson`: a fresh copy, with a bound of the text's bytes), or that text when the value is
 * one only `JSON.stringify` can write.
 */
export interface DirectRequest {
  readonly method: 'GET' | 'POST';
  /** Path and query, after the client's base address. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: JsonCopy | string | undefined;
  readonly signal: AbortSignal | undefined;
}

/**
 * A direct sender's answer: its text as HTTP carries it, or (a 2xx only) the value that text
 * parses to, a fresh plain JSON value the client's schemas read as they read a parsed text.
 */
export type DirectAnswer = HttpAnswer | JsonAnswer;

export interface JsonAnswer {
  readonly status: number;
  /** Equal to `JSON.parse` of the answer's text; a fresh copy the sender keeps nothing of. */
  readonly json: unknown;
  readonly retryAfter: string | null;
}

/**
 * A venue answering in this process (the simulator in a replay): the answer's status and its text
 * or value, with no URL, fetch `Request` and `Response`, abort controller, timer or JSON text per
 * request. A throw is a transport failure (`Aborted` when the caller's signal is, else
 * `ConnectionFailed`).
 */
export type DirectSender = (request: DirectRequest) => Promise<DirectAnswer>;

export interface ExchangeDeps {
  /** A fetch to send through (tests, proxies); undefined: the lean node:http client (`nodeHttpClient.ts`). */
  readonly fetch: typeof fetch | undefined;
  /** A venue in this process: used instead of `fetch` and HTTP when set. */
  readonly direct?: DirectSender | undefined;
  readonly limiter: RequestLimiter | false;
  readonly now: () => number;
  /** Where a 2xx body that fails its schema is reported (the runtime's wire-drift monitor). */
  readonly onDecodeFailure?: WireDecodeFailureSink | undefined;
  /** Told of every exchange that reached the wire, answered or not. */
  readonly onExchange?: RestExchangeObserver | undefined;
}

/**
 * One HTTP exchange: a rate-limiter token, timeout combined with the caller's signal, status
 * check, JSON and schema parsing. Every failure comes out typed: `VenueError` (the venue said no;
 * with its `Retry-After`), `VenueTransportError` (no answer), `VenueSchemaError` (an answer we
 * cannot read).
 */
export async function exchangeOnce<S extends z.ZodType>(
  request: ExchangeRequest<S>,
  deps: ExchangeDeps,
): Promise<z.output<S>> {
  // Without a limiter there is nothing to wait for: checked in this tick, so the request's bytes
  // leave without a detour through the microtask queue.
  if (deps.limiter === false) checkNotAborted(request);
  // A token there is now is taken in this tick too (an aborted request takes the way that refuses it).
  else if (request.signal?.aborted === true || deps.limiter.takeNow?.() !== true)
    await takeToken(request, deps.limiter);
  const answer =
    deps.onExchange === undefined ? await send(request, deps) : await sendObserved(request, deps, deps.onExchange);
  const { status, retryAfter } = answer;
  if (status < 200 || status > 299) {
    const retryAfterMs = parseRetryAfter(retryAfter, deps.now());
    throw new VenueError({
      httpStatus: status,
      rawBody: answerTextOf(answer),
      endpoint: request.endpoint,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    });
  }
  if ('json' in answer) return decodeAnswer(request, answer.json, deps.onDecodeFailure);
  return parseAnswer(request, status, answer.text, deps.onDecodeFailure);
}

/** The answer's text: as it came, or written from the value a direct sender handed over. */
function answerTextOf(answer: DirectAnswer): string {
  return 'json' in answer ? JSON.stringify(answer.json) : answer.text;
}

function send(request: ExchangeRequest<z.ZodType>, deps: ExchangeDeps): Promise<DirectAnswer> {
  if (deps.direct !== undefined) return directText(request, deps.direct);
  return deps.fetch === undefined ? httpText(request) : fetchText(request, deps.fetch);
}

/** The send, its request and answer (or the failure that came instead) told to the observer. */
async function sendObserved(
  request: ExchangeRequest<z.ZodType>,
  deps: ExchangeDeps,
  observe: RestExchangeObserver,
): Promise<DirectAnswer> {
  const url = new URL(request.url);
  const sent = {
    method: request.method,
    path: `${url.pathname}${url.search}`,
    ...(request.body === undefined ? {} : { body: bodyJson(request.body) }),
    sentAt: deps.now(),
  };
  try {
    const answer = await send(request, deps);
    observe({ ...sent, status: answer.status, answer: answerTextOf(answer) });
    return answer;
  } catch (error) {
    const failure = error instanceof VenueTransportError ? error.kind : 'ConnectionFailed';
    observe({ ...sent, status: 0, answer: '', failure });
    throw error;
  }
}

async function takeToken(request: ExchangeRequest<z.ZodType>, limiter: RequestLimiter): Promise<void> {
  try {
    await limiter.take(request.signal);
  } catch (error) {
    throw new VenueTransportError({ kind: 'Aborted', endpoint: request.endpoint, cause: error, requestSent: false });
  }
  checkNotAborted(request);
}

function checkNotAborted(request: ExchangeRequest<z.ZodType>): void {
  if (request.signal?.aborted === true) {
    throw new VenueTransportError({
      kind: 'Aborted',
      endpoint: request.endpoint,
      cause: request.signal.reason,
      requestSent: false,
    });
  }
}

/**
 * Through the node:http client, whose failures are its own: its timeout, the caller's reason, or
 * node's system error.
 */
async function httpText(request: ExchangeRequest<z.ZodType>): Promise<HttpAnswer> {
  const callerSignal = request.signal;
  try {
    return await nodeHttpSend({
      method: request.method,
      url: request.url,
      headers: request.headers,
      body: request.body === undefined ? undefined : bodyJson(request.body),
      timeoutMs: request.timeoutMs,
      signal: callerSignal,
    });
  } catch (error) {
    // The caller's abort wins over a timeout that fired at the same moment (as with fetch below).
    const kind =
      callerSignal?.aborted === true ? 'Aborted' : error instanceof HttpTimeout ? 'Timeout' : 'ConnectionFailed';
    throw new VenueTransportError({ kind, endpoint: request.endpoint, timeoutMs: request.timeoutMs, cause: error });
  }
}

/**
 * Through a venue in this process. No timer: the answer comes within the sender's own (virtual)
 * latency, and the caller's signal is handed to the sender, which stops on it. The body goes as
 * the value its text would carry; one only `JSON.stringify` can write goes as that text (and a
 * body it cannot write fails here, as over HTTP).
 */
async function directText(request: ExchangeRequest<z.ZodType>, direct: DirectSender): Promise<DirectAnswer> {
  try {
    return await direct({
      method: request.method,
      path: request.path,
      headers: request.headers,
      body: request.body === undefined ? undefined : directBody(request.body),
      signal: request.signal,
    });
  } catch (error) {
    const kind = request.signal?.aborted === true ? 'Aborted' : 'ConnectionFailed';
    throw new VenueTransportError({ kind, endpoint: request.endpoint, timeoutMs: request.timeoutMs, cause: error });
  }
}

function directBody(body: unknown): JsonCopy | string | undefined {
  return copyAsJson(body) ?? JSON.stringify(body);
}

async function fetchText(request: ExchangeRequest<z.ZodType>, doFetch: typeof fetch): Promise<HttpAnswer> {
  const callerSignal = request.signal;
  // A per-request controller rather than AbortSignal.any: on Node 20 every any() call leaves a
  // dependant entry on a long-lived caller signal (e.g. a shutdown signal) that is never freed.
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`timed out after ${request.timeoutMs} ms`, 'TimeoutError'));
  }, request.timeoutMs);
  const onCallerAbort = (): void => controller.abort(callerSignal?.reason);
  callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  try {
    const init: RequestInit = { method: request.method, headers: request.headers, signal: controller.signal };
    if (request.body !== undefined) init.body = bodyJson(request.body);
    const response = await doFetch(request.url, init);
    return { status: response.status, text: await response.text(), retryAfter: response.headers.get('retry-after') };
  } catch (error) {
    // The caller's abort wins over a timeout that fired at the same moment.
    const kind = callerSignal?.aborted === true ? 'Aborted' : timedOut ? 'Timeout' : 'ConnectionFailed';
    throw new VenueTransportError({ kind, endpoint: request.endpoint, timeoutMs: request.timeoutMs, cause: error });
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener('abort', onCallerAbort);
  }
}

function parseAnswer<S extends z.ZodType>(
  request: ExchangeRequest<S>,
  status: number,
  text: string,
  onDecodeFailure: WireDecodeFailureSink | undefined,
): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new VenueSchemaError({
      endpoint: request.endpoint,
      direction: 'response',
      issues: [{ path: '', message: `not JSON (HTTP ${status}, ${text.length} bytes)` }],
      executed: request.method === 'POST',
      cause: error,
    });
  }
  return decodeAnswer(request, json, onDecodeFailure);
}

/** A 2xx answer's JSON value read by the request's schema. */
function decodeAnswer<S extends z.ZodType>(
  request: ExchangeRequest<S>,
  json: unknown,
  onDecodeFailure: WireDecodeFailureSink | undefined,
): z.output<S> {
  // The order actions' answers are read by hand (fastAnswers.ts); zod reads any other, and names
  // the field of an answer the hand decoder refused.
  const fast = fastAnswerDecoder(request.responseSchema)?.(json);
  if (fast !== undefined) return fast as z.output<S>;
  const parsed = request.responseSchema.safeParse(json);
  if (!parsed.success) {
    onDecodeFailure?.(failureFromZod(`rest:${request.endpoint}`, parsed.error, json), json);
    throw new VenueSchemaError({
      endpoint: request.endpoint,
      direction: 'response',
      issues: schemaIssues(parsed.error),
      executed: request.method === 'POST',
    });
  }
  return parsed.data;
}

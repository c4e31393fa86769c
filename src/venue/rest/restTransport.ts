import type { WireDecodeFailureSink } from '../wireDecodeFailure.js';
import type { z } from 'zod';
import { systemClock, type Clock } from '../../core/clock.js';
import { InvalidValueError } from '../../core/invalidValueError.js';
import { exponentialBackoff } from '../../core/withRetry.js';
import { isCheckedBody } from './actionBodies.js';
import {
  exchangeOnce,
  type DirectSender,
  type ExchangeDeps,
  type ExchangeRequest,
  type RestExchangeObserver,
} from './restExchange.js';
import { retryRead, type RestRetryEvent } from './readRetry.js';
import { venueRestLimiter, type RequestLimiter } from './slidingWindowLimiter.js';
import { schemaIssues, VenueSchemaError } from './venueSchemaError.js';

export type { RestRetryEvent } from './readRetry.js';

/** A read is retried for at most this long by default (then the last failure is thrown). */
export const DEFAULT_READ_DEADLINE_MS = 30_000;
/** Read backoff: 100 ms doubling to 5 s, full jitter (each delay uniform in [0, step]). */
// A gateway's 502/503 usually passes within a moment: the first retries come fast (full jitter
// under 100, 200, 400 ms ...), the later ones back off to 5 s; a Retry-After always wins.
export const DEFAULT_READ_BACKOFF = Object.freeze({ baseMs: 100, maxMs: 5_000 });

export interface RestClientOptions {
  /** REST base address, e.g. "http://127.0.0.1:8080" or "https://venue.example/api". */
  readonly baseUrl: string;
  /** Default per-request timeout (each attempt of a read gets the whole of it). */
  readonly timeoutMs: number;
  /**
   * A fetch to send through instead of the default client (node:http / node:https keep-alive
   * agents shared by the process, `nodeHttpClient.ts`): for tests and proxies.
   */
  readonly fetch?: typeof fetch;
  /**
   * A venue in this process to send to instead of HTTP or `fetch` (the simulator of a replay):
   * the same checks, limiter, answer schemas and typed failures, without the HTTP-shaped objects.
   */
  readonly direct?: DirectSender;
  /**
   * A limiter to share between clients on one IP (default: the venue's 500 requests per 10 s as
   * a sliding window), or false to disable client-side limiting.
   * Every attempt of a retried read takes its own token.
   */
  readonly rateLimit?: RequestLimiter | false;
  readonly userAgent?: string;
  /**
   * How long a GET keeps being retried on failures the venue table calls transient (timeouts,
   * refused connections, 5xx, 429): no attempt starts later than this after the call. Default
   * 30 s; 0: one attempt. POSTs are never retried here (the engine decides about actions).
   */
  readonly readDeadlineMs?: number;
  /** Backoff between read attempts when the venue sends no `Retry-After`; `random` for tests. */
  readonly readBackoff?: { readonly baseMs: number; readonly maxMs: number; readonly random?: () => number };
  /** Time for backoff waits and deadlines (tests pass a ManualClock). */
  readonly clock?: Clock;
  /** Called before each wait between read attempts, so the runtime can log it. */
  readonly onRetry?: (event: RestRetryEvent) => void;
  /** Where a 2xx body that fails its schema is reported (the runtime's wire-drift monitor); it is still an error. */
  readonly onDecodeFailure?: WireDecodeFailureSink;
  /** Told of every exchange that reached the wire, with its bodies as text (the flight recorder). */
  readonly onExchange?: RestExchangeObserver;
}

export interface RestCallOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  /** This call's read deadline instead of the client's `readDeadlineMs` (0: one attempt). */
  readonly deadlineMs?: number;
  /** JWT for the Authorization header; only for JWT calls, never together with a permit. */
  readonly bearer?: string;
}

export interface RestRequest<S extends z.ZodType> {
  readonly method: 'GET' | 'POST';
  /** Label for errors and logs: the path template, e.g. "GET /v1/nonce-state/{account}". */
  readonly endpoint: string;
  /** Concrete path starting with "/". */
  readonly path: string;
  /** A list value is sent as the parameter repeated (`statuses=A&statuses=B`). */
  readonly query?: Readonly<Record<string, string | number | readonly string[] | undefined>>;
  readonly body?: unknown;
  /**
   * Checked before sending, so a malformed body never leaves (and never spends a nonce); a body
   * marked by `checkedBody` was checked where it was built.
   */
  readonly requestSchema?: z.ZodType;
  readonly responseSchema: S;
  readonly options?: RestCallOptions | undefined;
}

export interface RestTransport {
  request<S extends z.ZodType>(request: RestRequest<S>): Promise<z.output<S>>;
}

/** `base` without its trailing slashes (trimmed once per client). */
function buildUrl(base: string, path: string, query: RestRequest<z.ZodType>['query']): string {
  const url = `${base}${path}`;
  if (query === undefined) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (typeof value === 'object') for (const item of value) params.append(key, item);
    else if (value !== undefined) params.set(key, String(value));
  }
  const text = params.toString();
  return text === '' ? url : `${url}?${text}`;
}

function headerSet(
  hasBody: boolean,
  userAgent: string | undefined,
  bearer: string | undefined,
): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (hasBody) headers['content-type'] = 'application/json';
  if (userAgent !== undefined) headers['user-agent'] = userAgent;
  if (bearer !== undefined) headers['authorization'] = `Bearer ${bearer}`;
  return headers;
}

/**
 * The header sets of calls without a bearer, built once per client and frozen: the HTTP client
 * renders (and checks) a header set it has seen before only once.
 */
function sharedHeaderSets(userAgent: string | undefined): {
  readonly withBody: Readonly<Record<string, string>>;
  readonly withoutBody: Readonly<Record<string, string>>;
} {
  return {
    withBody: Object.freeze(headerSet(true, userAgent, undefined)),
    withoutBody: Object.freeze(headerSet(false, userAgent, undefined)),
  };
}

function headersFor(
  request: RestRequest<z.ZodType>,
  userAgent: string | undefined,
  shared: ReturnType<typeof sharedHeaderSets>,
): Readonly<Record<string, string>> {
  const bearer = request.options?.bearer;
  if (bearer !== undefined) return headerSet(request.body !== undefined, userAgent, bearer);
  return request.body === undefined ? shared.withoutBody : shared.withBody;
}

function checkRequestBody(request: RestRequest<z.ZodType>): void {
  // A body its builder range-checked is not parsed a second time (actionBodies.ts).
  if (request.requestSchema === undefined || isCheckedBody(request.body)) return;
  const checked = request.requestSchema.safeParse(request.body);
  if (!checked.success) {
    throw new VenueSchemaError({
      endpoint: request.endpoint,
      direction: 'request',
      issues: schemaIssues(checked.error),
    });
  }
}

/**
 * The REST transport: every request is checked, then sent through `exchangeOnce` (rate limit,
 * timeout, typed failures); a GET is sent again per the venue table (`requestFaults.ts`) within
 * its deadline, honouring the venue's `Retry-After`. Failures come out typed: `VenueError` (the
 * venue said no), `VenueTransportError` (no answer), `VenueSchemaError` (an answer we cannot read).
 */
export function createRestTransport(options: RestClientOptions): RestTransport {
  if (!/^https?:\/\//.test(options.baseUrl)) {
    throw new InvalidValueError('baseUrl', options.baseUrl, 'an http:// or https:// address');
  }
  const clock = options.clock ?? systemClock;
  const deps: ExchangeDeps = {
    fetch: options.fetch,
    direct: options.direct,
    limiter: options.rateLimit === undefined ? venueRestLimiter() : options.rateLimit,
    now: () => clock.now(),
    onDecodeFailure: options.onDecodeFailure,
    onExchange: options.onExchange,
  };
  const backoff = exponentialBackoff({ ...DEFAULT_READ_BACKOFF, ...options.readBackoff, jitter: 1 });
  const base = options.baseUrl.replace(/\/+$/, '');
  const shared = sharedHeaderSets(options.userAgent);

  const exchangeOf = <S extends z.ZodType>(request: RestRequest<S>): ExchangeRequest<S> => {
    checkRequestBody(request);
    const url = buildUrl(base, request.path, request.query);
    return {
      method: request.method,
      endpoint: request.endpoint,
      url,
      path: url.slice(base.length),
      headers: headersFor(request, options.userAgent, shared),
      body: request.body,
      responseSchema: request.responseSchema,
      timeoutMs: request.options?.timeoutMs ?? options.timeoutMs,
      signal: request.options?.signal,
    };
  };

  return {
    // Not an async function: a refused request rejects, and a POST's promise is exchangeOnce's own
    // rather than one more wrapped around it on every order's way to the socket.
    request<S extends z.ZodType>(request: RestRequest<S>): Promise<z.output<S>> {
      let exchange: ExchangeRequest<S>;
      try {
        exchange = exchangeOf(request);
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
      // A POST goes once, from this call (no closure to build per action).
      if (request.method !== 'GET') return exchangeOnce(exchange, deps);
      const signal = exchange.signal;
      return retryRead(() => exchangeOnce(exchange, deps), {
        endpoint: request.endpoint,
        deadlineMs: request.options?.deadlineMs ?? options.readDeadlineMs ?? DEFAULT_READ_DEADLINE_MS,
        backoff,
        clock,
        ...(signal === undefined ? {} : { signal }),
        ...(options.onRetry === undefined ? {} : { onRetry: options.onRetry }),
      });
    },
  };
}

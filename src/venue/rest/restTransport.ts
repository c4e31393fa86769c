import type { z } from 'zod';
import { InvalidValueError } from '../../core/invalidValueError.js';
import { VenueError } from '../venueError.js';
import { VenueTransportError } from '../venueTransportError.js';
import { venueRestLimiter, type RequestLimiter } from './slidingWindowLimiter.js';
import { schemaIssues, VenueSchemaError } from './venueSchemaError.js';

export interface RestClientOptions {
  /** REST base address, e.g. "http://127.0.0.1:8080" or "https://venue.example/api". */
  readonly baseUrl: string;
  /** Default per-request timeout. */
  readonly timeoutMs: number;
  /** Defaults to the global fetch (undici keeps connections alive). */
  readonly fetch?: typeof fetch;
  /**
   * A limiter to share between clients on one IP (default: the venue's 500 requests per 10 s as
   * a sliding window; a `TokenBucket` also fits), or false to disable client-side limiting.
   */
  readonly rateLimit?: RequestLimiter | false;
  readonly userAgent?: string;
}

export interface RestCallOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  /** JWT for the Authorization header; only for JWT calls, never together with a permit. */
  readonly bearer?: string;
}

export interface RestRequest<S extends z.ZodType> {
  readonly method: 'GET' | 'POST';
  /** Label for errors and logs: the path template, e.g. "GET /v1/nonce-state/{account}". */
  readonly endpoint: string;
  /** Concrete path starting with "/". */
  readonly path: string;
  readonly query?: Readonly<Record<string, string | number | undefined>>;
  readonly body?: unknown;
  /** Checked before sending, so a malformed body never leaves (and never spends a nonce). */
  readonly requestSchema?: z.ZodType;
  readonly responseSchema: S;
  readonly options?: RestCallOptions | undefined;
}

export interface RestTransport {
  request<S extends z.ZodType>(request: RestRequest<S>): Promise<z.output<S>>;
}

function buildUrl(baseUrl: string, path: string, query: RestRequest<z.ZodType>['query']): string {
  const url = `${baseUrl.replace(/\/+$/, '')}${path}`;
  if (query === undefined) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, String(value));
  }
  const text = params.toString();
  return text === '' ? url : `${url}?${text}`;
}

/**
 * One HTTP exchange: rate limit, timeout combined with the caller's signal, status check, JSON and
 * schema parsing. Every failure comes out typed: `VenueError` (the venue said no),
 * `VenueTransportError` (no answer), `VenueSchemaError` (an answer we cannot read).
 */
export function createRestTransport(options: RestClientOptions): RestTransport {
  if (!/^https?:\/\//.test(options.baseUrl)) {
    throw new InvalidValueError('baseUrl', options.baseUrl, 'an http:// or https:// address');
  }
  const doFetch = options.fetch ?? globalThis.fetch;
  const bucket = options.rateLimit === undefined ? venueRestLimiter() : options.rateLimit;

  return {
    async request<S extends z.ZodType>(request: RestRequest<S>): Promise<z.output<S>> {
      if (request.requestSchema !== undefined) {
        const checked = request.requestSchema.safeParse(request.body);
        if (!checked.success) {
          throw new VenueSchemaError({ endpoint: request.endpoint, direction: 'request', issues: schemaIssues(checked.error) });
        }
      }
      const callerSignal = request.options?.signal;
      const callerAborted = (): boolean => callerSignal?.aborted === true;
      const timeoutMs = request.options?.timeoutMs ?? options.timeoutMs;
      if (bucket !== false) {
        try {
          await bucket.take(callerSignal);
        } catch (error) {
          throw new VenueTransportError({ kind: 'Aborted', endpoint: request.endpoint, cause: error, requestSent: false });
        }
      }

      const headers: Record<string, string> = { accept: 'application/json' };
      if (request.body !== undefined) headers['content-type'] = 'application/json';
      if (options.userAgent !== undefined) headers['user-agent'] = options.userAgent;
      if (request.options?.bearer !== undefined) headers['authorization'] = `Bearer ${request.options.bearer}`;

      if (callerAborted()) {
        throw new VenueTransportError({ kind: 'Aborted', endpoint: request.endpoint, cause: callerSignal?.reason, requestSent: false });
      }
      // A per-request controller rather than AbortSignal.any: on Node 20 every any() call leaves a
      // dependant entry on a long-lived caller signal (e.g. a shutdown signal) that is never freed.
      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort(new DOMException(`timed out after ${timeoutMs} ms`, 'TimeoutError'));
      }, timeoutMs);
      const onCallerAbort = (): void => controller.abort(callerSignal?.reason);
      callerSignal?.addEventListener('abort', onCallerAbort, { once: true });

      let status: number;
      let text: string;
      try {
        const init: RequestInit = { method: request.method, headers, signal: controller.signal };
        if (request.body !== undefined) init.body = JSON.stringify(request.body);
        const response = await doFetch(buildUrl(options.baseUrl, request.path, request.query), init);
        status = response.status;
        text = await response.text();
      } catch (error) {
        // The caller's abort wins over a timeout that fired at the same moment.
        const kind = callerAborted() ? 'Aborted' : timedOut ? 'Timeout' : 'ConnectionFailed';
        throw new VenueTransportError({ kind, endpoint: request.endpoint, timeoutMs, cause: error });
      } finally {
        clearTimeout(timer);
        callerSignal?.removeEventListener('abort', onCallerAbort);
      }

      if (status < 200 || status > 299) {
        throw new VenueError({ httpStatus: status, rawBody: text, endpoint: request.endpoint });
      }
      const executed = request.method === 'POST';
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (error) {
        throw new VenueSchemaError({
          endpoint: request.endpoint,
          direction: 'response',
          issues: [{ path: '', message: `not JSON (HTTP ${status}, ${text.length} bytes)` }],
          executed,
          cause: error,
        });
      }
      const parsed = request.responseSchema.safeParse(json);
      if (!parsed.success) {
        throw new VenueSchemaError({ endpoint: request.endpoint, direction: 'response', issues: schemaIssues(parsed.error), executed });
      }
      return parsed.data;
    },
  };
}

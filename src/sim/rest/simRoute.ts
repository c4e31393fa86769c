import type { SimRuntime } from '../simRuntime.js';

/** A request as a route handler sees it: already routed, body already parsed as JSON. */
export interface SimRequest {
  readonly method: string;
  readonly path: string;
  /** Path parameters named by `:name` segments of the route pattern. */
  readonly params: Readonly<Record<string, string>>;
  /** Query parameters; a repeated name keeps its first value. */
  readonly query: Readonly<Record<string, string>>;
  /** The request target as received (path and query), for a route that reads a repeated parameter. */
  readonly target: string;
  /** Parsed JSON body of a POST; undefined for GET. */
  readonly body: unknown;
  /** Token of an `Authorization: Bearer <token>` header. */
  readonly bearer: string | undefined;
}

/** The whole JSON body to send, without `request_id` (the server adds it). */
export interface SimResponse {
  readonly status: number;
  readonly body: Readonly<Record<string, unknown>>;
  /** Extra response headers, e.g. a 429's `retry-after`. */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface SimRoute {
  readonly method: 'GET' | 'POST';
  /** Path with `:name` segments, e.g. `/v1/nonce-state/:account`. */
  readonly pattern: string;
  /** True when the route changes state: a simulated 5xx may then come after the change. */
  readonly mutates: boolean;
  readonly handle: (runtime: SimRuntime, request: SimRequest) => SimResponse;
}

/** `{data}` with HTTP 200. */
export function ok(data: unknown): SimResponse {
  return { status: 200, body: { data } };
}

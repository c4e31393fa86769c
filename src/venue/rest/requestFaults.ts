import { VenueError } from '../venueError.js';
import { VenueTransportError } from '../venueTransportError.js';
import { VenueSchemaError } from './venueSchemaError.js';

/**
 * The one table that says what a failed venue request means, keyed by what kind of request it
 * was and how it failed. Every layer reads it: the REST transport retries reads by it, the
 * engine's signed-action policy (`engine/sending/retryPolicy.ts`) takes its "no answer / rate limited /
 * definite" split from it, and start-up (`runtime/bot/startup/untilDeadline.ts`) rides out what it
 * calls transient. Nothing else in the project decides whether a failure is worth another try.
 *
 * | failure \ request        | read (every GET)    | signed action (permit/JWT POST) | setup/login POST |
 * |--------------------------|---------------------|---------------------------------|------------------|
 * | timeout                  | retry               | unknown outcome                 | unknown outcome  |
 * | connection failed        | retry               | unknown outcome                 | unknown outcome  |
 * | 5xx other than 500       | retry               | unknown outcome                 | unknown outcome  |
 * | 500 (unnamed)            | retry               | unknown outcome                 | unknown outcome  |
 * | 500 on an account read   | refused             | -                               | -                |
 * | 429 / ResourceExhausted  | retry (Retry-After) | retry (same bytes, after delay) | refused          |
 * | named refusal, other 4xx | refused             | refused                         | refused          |
 * | unreadable answer        | give up             | give up                         | give up          |
 * | invalid request          | refused             | refused                         | refused          |
 * | aborted by the caller    | give up             | give up                         | give up          |
 * | not a venue error        | give up             | give up                         | give up          |
 *
 * `retry`: sending the very same request again is safe and may succeed. `unknown outcome`: no
 * definite answer; the action may have executed (venue-facts: actions are mined before the reply),
 * so only the engine, which can resend the identical signed bytes and confirm from venue state,
 * acts on it. `refused`: a definite answer; the request did not execute and sending it again gets
 * the same answer. `give up`: nothing here can help (the caller stopped, the venue's answer has
 * another shape, a bug).
 *
 * Setup and login POSTs are never resent blindly: every setup step reads the venue's state before
 * acting, so running setup again is the way to continue after an unknown outcome.
 */
export type RequestKind = 'read' | 'signed' | 'setup';

export type RequestFailure =
  | 'timeout'
  | 'connection_failed'
  | 'unavailable'
  | 'internal'
  | 'no_account_state'
  | 'rate_limited'
  | 'refused'
  | 'unreadable'
  | 'invalid_request'
  | 'aborted'
  | 'unexpected';

export type FaultVerdict = 'retry' | 'unknown_outcome' | 'refused' | 'give_up';

const TABLE: Readonly<Record<RequestFailure, Readonly<Record<RequestKind, FaultVerdict>>>> = {
  timeout: { read: 'retry', signed: 'unknown_outcome', setup: 'unknown_outcome' },
  connection_failed: { read: 'retry', signed: 'unknown_outcome', setup: 'unknown_outcome' },
  unavailable: { read: 'retry', signed: 'unknown_outcome', setup: 'unknown_outcome' },
  internal: { read: 'retry', signed: 'unknown_outcome', setup: 'unknown_outcome' },
  // venue-facts: an account with no on-chain state answers its account reads with 500 Internal.
  // That is the answer (callers poll for registration), not an outage; only reads can get it.
  no_account_state: { read: 'refused', signed: 'refused', setup: 'refused' },
  // Refused before it executed, so the same bytes are safe later; setup leaves that to a re-run.
  rate_limited: { read: 'retry', signed: 'retry', setup: 'refused' },
  refused: { read: 'refused', signed: 'refused', setup: 'refused' },
  unreadable: { read: 'give_up', signed: 'give_up', setup: 'give_up' },
  invalid_request: { read: 'refused', signed: 'refused', setup: 'refused' },
  aborted: { read: 'give_up', signed: 'give_up', setup: 'give_up' },
  unexpected: { read: 'give_up', signed: 'give_up', setup: 'give_up' },
};

export function faultVerdict(kind: RequestKind, failure: RequestFailure): FaultVerdict {
  return TABLE[failure][kind];
}

/** The POSTs of the setup flow (spec "Setup", "JWT path") and the testnet faucet. */
const SETUP_PATHS: ReadonlySet<string> = new Set([
  '/v1/auth/register-signer',
  '/v1/auth/revoke-signer',
  '/v1/auth/login',
  '/v1/auth/refresh',
  '/v1/auth/approve-single',
  '/v1/account/deposit',
]);

/**
 * The kind of request behind an endpoint label such as "GET /v1/markets" or
 * "POST /v1/orders/place"; undefined for a label that names no method.
 */
export function requestKindOf(endpoint: string): RequestKind | undefined {
  const [method, path = ''] = endpoint.split(' ');
  if (method === 'GET') return 'read';
  if (method !== 'POST') return undefined;
  return SETUP_PATHS.has(path.split('?')[0] ?? '') ? 'setup' : 'signed';
}

/** How a request failed, from the typed error the REST transport throws. */
export function requestFailureOf(error: unknown): RequestFailure {
  if (error instanceof VenueTransportError) {
    if (error.kind === 'Aborted') return 'aborted';
    return error.kind === 'Timeout' ? 'timeout' : 'connection_failed';
  }
  if (error instanceof VenueSchemaError) return error.direction === 'request' ? 'invalid_request' : 'unreadable';
  if (!(error instanceof VenueError)) return 'unexpected';
  if (error.kind === 'RateLimited') return 'rate_limited';
  // A named cause (NonceUsed, OpenPositionExists, ...) is definite even when it comes as a 5xx.
  if ((error.kind !== 'Internal' && error.kind !== 'Unknown') || error.httpStatus < 500) return 'refused';
  if (error.httpStatus !== 500) return 'unavailable';
  return isAccountRead(error.endpoint) ? 'no_account_state' : 'internal';
}

function isAccountRead(endpoint: string | undefined): boolean {
  return endpoint?.startsWith('GET /v1/account/') === true;
}

/** The verdict for a failure, the request kind read from the error's endpoint label. */
export function verdictOf(error: unknown): FaultVerdict {
  const kind = requestKindOf(endpointOf(error) ?? '');
  return kind === undefined ? 'give_up' : faultVerdict(kind, requestFailureOf(error));
}

/**
 * True when a failed read is worth running again: what start-up rides out. A failed POST is never
 * transient here, whatever the table says for it: resending an action is the engine's decision.
 */
export function isTransientFailure(error: unknown): boolean {
  return requestKindOf(endpointOf(error) ?? '') === 'read' && verdictOf(error) === 'retry';
}

function endpointOf(error: unknown): string | undefined {
  if (error instanceof VenueError || error instanceof VenueTransportError || error instanceof VenueSchemaError)
    return error.endpoint;
  return undefined;
}

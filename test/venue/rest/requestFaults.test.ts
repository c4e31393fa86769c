import { describe, expect, it } from 'vitest';
import {
  faultVerdict,
  isTransientFailure,
  requestFailureOf,
  requestKindOf,
  verdictOf,
  type FaultVerdict,
  type RequestFailure,
  type RequestKind,
} from '../../../src/venue/rest/requestFaults.js';
import { VenueSchemaError } from '../../../src/venue/rest/venueSchemaError.js';
import { VenueError } from '../../../src/venue/venueError.js';
import { VenueTransportError } from '../../../src/venue/venueTransportError.js';

function venue(httpStatus: number, code: string, message: string, endpoint = 'GET /v1/markets'): VenueError {
  return new VenueError({ httpStatus, rawBody: JSON.stringify({ error: { code, message } }), endpoint });
}

describe('the venue table: failure x request kind -> verdict', () => {
  // Every row of the table, in its order: read, signed action, setup/login POST.
  it.each<[RequestFailure, FaultVerdict, FaultVerdict, FaultVerdict]>([
    ['timeout', 'retry', 'unknown_outcome', 'unknown_outcome'],
    ['connection_failed', 'retry', 'unknown_outcome', 'unknown_outcome'],
    ['unavailable', 'retry', 'unknown_outcome', 'unknown_outcome'],
    ['internal', 'retry', 'unknown_outcome', 'unknown_outcome'],
    ['no_account_state', 'refused', 'refused', 'refused'],
    ['rate_limited', 'retry', 'retry', 'refused'],
    ['refused', 'refused', 'refused', 'refused'],
    ['unreadable', 'give_up', 'give_up', 'give_up'],
    ['invalid_request', 'refused', 'refused', 'refused'],
    ['aborted', 'give_up', 'give_up', 'give_up'],
    ['unexpected', 'give_up', 'give_up', 'give_up'],
  ])('%s: read %s, signed %s, setup %s', (failure, read, signed, setup) => {
    const row = (['read', 'signed', 'setup'] as RequestKind[]).map((kind) => faultVerdict(kind, failure));
    expect(row).toEqual([read, signed, setup]);
  });
});

describe('requestKindOf', () => {
  it.each<[string, RequestKind | undefined]>([
    ['GET /v1/markets', 'read'],
    ['GET /v1/auth/nonce', 'read'],
    ['GET /v1/orders/open', 'read'],
    ['POST /v1/orders/place', 'signed'],
    ['POST /v1/orders/cancel-all', 'signed'],
    ['POST /v1/account/leverage', 'signed'],
    ['POST /v1/auth/register-signer', 'setup'],
    ['POST /v1/auth/revoke-signer', 'setup'],
    ['POST /v1/auth/login', 'setup'],
    ['POST /v1/auth/refresh', 'setup'],
    ['POST /v1/auth/approve-single', 'setup'],
    ['POST /v1/account/deposit', 'setup'],
    ['venue request', undefined],
  ])('%s is %s', (endpoint, kind) => {
    expect(requestKindOf(endpoint)).toBe(kind);
  });
});

describe('requestFailureOf', () => {
  it.each<[string, unknown, RequestFailure]>([
    ['a timeout', new VenueTransportError({ kind: 'Timeout', endpoint: 'GET /v1/markets', timeoutMs: 10 }), 'timeout'],
    [
      'a refused connection',
      new VenueTransportError({ kind: 'ConnectionFailed', endpoint: 'GET /v1/markets' }),
      'connection_failed',
    ],
    [
      'an abort',
      new VenueTransportError({ kind: 'Aborted', endpoint: 'GET /v1/markets', requestSent: false }),
      'aborted',
    ],
    ['a 503', venue(503, 'Unavailable', 'Unavailable: simulated outage'), 'unavailable'],
    [
      'a 502 in plain text',
      new VenueError({ httpStatus: 502, rawBody: 'bad gateway', endpoint: 'GET /v1/markets' }),
      'unavailable',
    ],
    ['a 500', venue(500, 'Internal', 'Internal: internal error'), 'internal'],
    [
      'a 500 on an account read',
      venue(500, 'Internal', 'Internal: account 0xab has no on-chain state', 'GET /v1/account/cross-margin-balance'),
      'no_account_state',
    ],
    [
      'a 429',
      venue(429, 'ResourceExhausted', 'ResourceExhausted: rate limited: 500 requests per 10 s per IP'),
      'rate_limited',
    ],
    [
      'a 429 without a text',
      new VenueError({ httpStatus: 429, rawBody: '', endpoint: 'GET /v1/markets' }),
      'rate_limited',
    ],
    [
      'a named revert, even as a 500',
      venue(
        500,
        'Internal',
        'Internal: UpdateMarginMode reverted: OpenPositionExists(5)',
        'POST /v1/account/margin-mode',
      ),
      'refused',
    ],
    ['an invalid argument', venue(400, 'InvalidArgument', 'InvalidArgument: bad market'), 'refused'],
    ['a 404', venue(404, 'NotFound', 'NotFound: no route'), 'refused'],
    [
      'an unreadable answer',
      new VenueSchemaError({ endpoint: 'GET /v1/markets', direction: 'response', issues: [] }),
      'unreadable',
    ],
    [
      'a request refused before sending',
      new VenueSchemaError({ endpoint: 'POST /v1/orders/place', direction: 'request', issues: [] }),
      'invalid_request',
    ],
    ['a bug', new TypeError('boom'), 'unexpected'],
  ])('%s -> %s', (_name, error, failure) => {
    expect(requestFailureOf(error)).toBe(failure);
  });
});

describe('verdictOf and isTransientFailure', () => {
  it('reads the request kind from the error: a 503 read is retried, a 503 action has an unknown outcome', () => {
    expect(verdictOf(venue(503, 'Unavailable', 'Unavailable: x'))).toBe('retry');
    expect(verdictOf(venue(503, 'Unavailable', 'Unavailable: x', 'POST /v1/orders/place'))).toBe('unknown_outcome');
    expect(verdictOf(new TypeError('boom'))).toBe('give_up');
  });

  it('calls only retryable reads transient, never a POST', () => {
    expect(isTransientFailure(venue(503, 'Unavailable', 'Unavailable: x'))).toBe(true);
    expect(
      isTransientFailure(new VenueTransportError({ kind: 'ConnectionFailed', endpoint: 'GET /v1/auth/nonce' })),
    ).toBe(true);
    expect(isTransientFailure(venue(429, 'ResourceExhausted', 'ResourceExhausted: rate limited'))).toBe(true);
    // Rate limited is a retry for a signed action too, but resending an action is the engine's call.
    expect(
      isTransientFailure(venue(429, 'ResourceExhausted', 'ResourceExhausted: rate limited', 'POST /v1/orders/place')),
    ).toBe(false);
    expect(isTransientFailure(venue(503, 'Unavailable', 'Unavailable: x', 'POST /v1/account/deposit'))).toBe(false);
    expect(isTransientFailure(venue(400, 'InvalidArgument', 'InvalidArgument: x'))).toBe(false);
    expect(isTransientFailure(new VenueTransportError({ kind: 'Aborted', endpoint: 'GET /v1/markets' }))).toBe(false);
    expect(isTransientFailure(new Error('x'))).toBe(false);
  });
});

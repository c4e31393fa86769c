import { describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_CONFIG } from '../../../src/engine/config/engineConfig.js';
import { classifyFailure, type FailureContext, type RetryAction } from '../../../src/engine/sending/retryPolicy.js';
import { VenueError } from '../../../src/venue/venueError.js';
import { VenueTransportError } from '../../../src/venue/venueTransportError.js';

const config = DEFAULT_ENGINE_CONFIG.retry; // maxResends 3, resendDelayMs 250, registration 10 attempts 500..5000 ms
const ACCOUNT = '0x00000000000000000000000000000000000000a1';
const SIGNER = '0x00000000000000000000000000000000000000b2';

function venue(httpStatus: number, code: string, message: string): VenueError {
  return new VenueError({
    httpStatus,
    rawBody: JSON.stringify({ error: { code, message }, request_id: 'r-1' }),
    endpoint: 'POST /v1/orders/place',
  });
}
const fresh: FailureContext = { attempt: 1, deadlinePassed: false };
const resent: FailureContext = { attempt: 2, deadlinePassed: false };

const notRegistered = venue(
  400,
  'FailedPrecondition',
  `FailedPrecondition: account ${ACCOUNT} is not registered (userId 0)`,
);
const rateLimited = venue(
  429,
  'ResourceExhausted',
  'ResourceExhausted: rate limited: 1 request per second for update_leverage',
);
const timeout = new VenueTransportError({ kind: 'Timeout', endpoint: 'POST /v1/orders/place', timeoutMs: 5000 });
const dropped = new VenueTransportError({ kind: 'ConnectionFailed', endpoint: 'POST /v1/orders/place' });
const nonceUsed = venue(400, 'FailedPrecondition', 'FailedPrecondition: PlaceOrder reverted: NonceUsed()');
const badAnchor = venue(400, 'FailedPrecondition', 'FailedPrecondition: PlaceOrder reverted: InvalidNonceAnchor()');
const badIndex = venue(400, 'FailedPrecondition', 'FailedPrecondition: PlaceOrder reverted: InvalidNonceIndex(208)');
const expired = venue(400, 'FailedPrecondition', 'FailedPrecondition: PlaceOrder reverted: PermitExpired()');
const signer = venue(
  400,
  'FailedPrecondition',
  `FailedPrecondition: PlaceOrder reverted: SignerNotAuthorized(${SIGNER})`,
);

describe('classifyFailure', () => {
  it.each<[string, unknown, FailureContext, RetryAction, string, number]>([
    ['registration lag, first retry', notRegistered, fresh, 'retry_same_after_delay', 'in_flight', 500],
    [
      'registration lag backs off',
      notRegistered,
      { attempt: 3, deadlinePassed: false },
      'retry_same_after_delay',
      'in_flight',
      2000,
    ],
    [
      'registration lag backoff is capped',
      notRegistered,
      { attempt: 9, deadlinePassed: false },
      'retry_same_after_delay',
      'in_flight',
      5000,
    ],
    ['registration lag beyond the limit', notRegistered, { attempt: 10, deadlinePassed: false }, 'fail', 'refused', 0],
    ['rate limited', rateLimited, fresh, 'retry_same_after_delay', 'in_flight', 1000],
    ['rate limited beyond the limit', rateLimited, { attempt: 5, deadlinePassed: false }, 'fail', 'refused', 0],
    ['timeout', timeout, fresh, 'resend_identical', 'in_flight', 250],
    ['dropped connection', dropped, resent, 'resend_identical', 'in_flight', 250],
    ['5xx', venue(502, 'Unavailable', 'Unavailable: upstream'), fresh, 'resend_identical', 'in_flight', 250],
    [
      '500 Internal',
      venue(500, 'Internal', 'Internal: no on-chain state'),
      fresh,
      'resend_identical',
      'in_flight',
      250,
    ],
    ['timeouts beyond maxResends', timeout, { attempt: 4, deadlinePassed: false }, 'fail', 'unknown', 0],
    ['timeout after the deadline', timeout, { attempt: 1, deadlinePassed: true }, 'confirm_landed', 'unknown', 0],
    ['NonceUsed on a resend', nonceUsed, resent, 'confirm_landed', 'landed', 0],
    ['NonceUsed on a fresh pair', nonceUsed, fresh, 'resync_nonces_then_resign', 'landed', 0],
    ['InvalidNonceAnchor', badAnchor, fresh, 'resync_nonces_then_resign', 'refused', 0],
    ['InvalidNonceAnchor on a resend', badAnchor, resent, 'confirm_landed', 'unknown', 0],
    ['InvalidNonceIndex', badIndex, fresh, 'resync_nonces_then_resign', 'refused', 0],
    ['expired permit', expired, fresh, 'resign_new_nonce', 'refused', 0],
    ['expired permit on a resend', expired, resent, 'confirm_landed', 'unknown', 0],
    ['signer not authorised', signer, fresh, 'stop_signer_not_authorized', 'refused', 0],
    [
      'allowance expired',
      venue(
        400,
        'FailedPrecondition',
        `FailedPrecondition: PlaceOrder reverted: AllowanceExpired(${ACCOUNT},${SIGNER})`,
      ),
      fresh,
      'fail',
      'refused',
      0,
    ],
    [
      'open position on a margin switch, even as a 5xx',
      venue(500, 'Internal', 'Internal: UpdateMarginMode reverted: OpenPositionExists(5)'),
      fresh,
      'fail',
      'refused',
      0,
    ],
    [
      'market order with GTC',
      venue(400, 'InvalidArgument', 'InvalidArgument: market orders require FOK or IOC time_in_force, got 0'),
      fresh,
      'fail',
      'refused',
      0,
    ],
    [
      'unauthenticated, permit mode',
      venue(401, 'Unauthenticated', 'Unauthenticated: token expired'),
      fresh,
      'fail',
      'refused',
      0,
    ],
    [
      'unauthenticated, JWT mode: log in again and resend',
      venue(401, 'Unauthenticated', 'Unauthenticated: token expired'),
      { ...fresh, reauthentications: 0 },
      'reauthenticate_then_resend',
      'in_flight',
      0,
    ],
    [
      'unauthenticated, JWT mode, again with a fresh token',
      venue(401, 'Unauthenticated', 'Unauthenticated: invalid token'),
      { attempt: 2, deadlinePassed: false, reauthentications: 1 },
      'fail',
      'refused',
      0,
    ],
    ['an unknown 4xx', venue(404, 'NotFound', 'NotFound: no such route'), fresh, 'fail', 'refused', 0],
    [
      'aborted by the caller',
      new VenueTransportError({ kind: 'Aborted', endpoint: 'POST /v1/orders/place' }),
      fresh,
      'fail',
      'unknown',
      0,
    ],
    [
      'aborted before it was sent',
      new VenueTransportError({ kind: 'Aborted', endpoint: 'POST /v1/orders/place', requestSent: false }),
      fresh,
      'fail',
      'refused',
      0,
    ],
    [
      'aborted before a resend, after an unanswered send',
      new VenueTransportError({ kind: 'Aborted', endpoint: 'POST /v1/orders/place', requestSent: false }),
      { attempt: 2, deadlinePassed: false, unansweredBefore: 1 },
      'fail',
      'unknown',
      0,
    ],
    [
      'aborted before a resend, after definite refusals only',
      new VenueTransportError({ kind: 'Aborted', endpoint: 'POST /v1/orders/place', requestSent: false }),
      { attempt: 3, deadlinePassed: false, unansweredBefore: 0 },
      'fail',
      'refused',
      0,
    ],
    ['a non-venue error', new TypeError('boom'), fresh, 'fail', 'unknown', 0],
  ])('%s -> %s', (_name, error, context, action, nonceFate, delayMs) => {
    const decision = classifyFailure(error, context, config);
    expect({ action: decision.action, nonceFate: decision.nonceFate, delayMs: decision.delayMs }).toEqual({
      action,
      nonceFate,
      delayMs,
    });
    expect(decision.error).toBe(error);
    expect(decision.reason.length).toBeGreaterThan(0);
  });

  it("stops on SignerNotAuthorized with the spec's hint to check the target first", () => {
    const decision = classifyFailure(signer, fresh, config);
    expect(decision.hints[0]).toMatch(/target is addresses\.router/);
    expect(decision.hints.join(' ')).toMatch(/GET \/v1\/system\/config/);
  });

  it.each<[string, unknown, number, RetryAction]>([
    ['expired after registration-lag retries only', expired, 0, 'resign_new_nonce'],
    ['expired after an unanswered send', expired, 1, 'confirm_landed'],
    ['NonceUsed after rate-limit retries only', nonceUsed, 0, 'resync_nonces_then_resign'],
    ['NonceUsed after an unanswered send', nonceUsed, 2, 'confirm_landed'],
  ])('on attempt 4, %s -> %s', (_name, error, unansweredBefore, action) => {
    expect(classifyFailure(error, { attempt: 4, deadlinePassed: false, unansweredBefore }, config).action).toBe(action);
  });

  it('follows the configured limits', () => {
    const strict = { ...config, maxResends: 0 };
    expect(classifyFailure(timeout, fresh, strict).action).toBe('fail');
  });
});

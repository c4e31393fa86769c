import { faultVerdict, requestFailureOf } from '../../venue/rest/requestFaults.js';
import { VenueError } from '../../venue/venueError.js';
import { VenueTransportError } from '../../venue/venueTransportError.js';
import type { RetryConfig } from '../config/engineConfig.js';
import type { NonceFate } from '../nonces/nonceAllocator.js';

/**
 * The one place that decides what to do after a signed request failed. Every decision also says
 * what to report to the nonce allocator for the pair the request used: `in_flight` while the
 * same signed bytes will be sent again, otherwise its fate.
 *
 * Idempotency comes from the (anchor, bit) nonce, not from client_order_id: an identical resend
 * cannot execute twice, so timeouts, 5xx and dropped connections are resent as they are. A new
 * signature with a new pair is only made once the old pair is known not to have executed.
 */
export type RetryAction =
  | 'retry_same_after_delay'
  | 'resend_identical'
  | 'confirm_landed'
  | 'resign_new_nonce'
  | 'resync_nonces_then_resign'
  | 'stop_signer_not_authorized'
  /** JWT mode: drop the refused token (the sender logs in again) and send the request once more. */
  | 'reauthenticate_then_resend'
  | 'fail';

export interface RetryDecision {
  readonly action: RetryAction;
  /** Wait this long before acting (0 when the action is immediate). */
  readonly delayMs: number;
  readonly nonceFate: NonceFate | 'in_flight';
  readonly reason: string;
  readonly hints: readonly string[];
  /** The failure as parsed by the venue layer, kept for the outcome and the log. */
  readonly error: unknown;
}

export interface FailureContext {
  /** How many times these exact signed bytes have been sent, this failed send included (1-based). */
  readonly attempt: number;
  /** The permit's deadline is already behind the local clock. */
  readonly deadlinePassed: boolean;
  /**
   * How many earlier sends of these bytes got no definite answer (timeout, 5xx, dropped
   * connection). Only those can have executed unseen; sends the venue definitely refused
   * (registration lag, rate limit) cannot. Absent: every earlier send is assumed unanswered.
   */
  readonly unansweredBefore?: number;
  /**
   * JWT mode with a sender that can drop its token: how many times this intent already did so
   * after an Unauthenticated answer. Absent: permit mode, where Unauthenticated is final.
   */
  readonly reauthentications?: number;
}

const SIGNER_HINTS = [
  'check that permit target is addresses.router (not the account, not the domain verifying contract)',
  'refresh the system config (GET /v1/system/config): contract addresses change on redeploys',
];

/**
 * The failure's class and the venue table's verdict for a signed action come from
 * `venue/rest/requestFaults.ts`, the one classification: no answer (resend the identical bytes),
 * rate limited (the table's only retry here), a definite refusal (by its named cause), or give up.
 */
export function classifyFailure(error: unknown, context: FailureContext, config: RetryConfig): RetryDecision {
  const failure = requestFailureOf(error);
  switch (faultVerdict('signed', failure)) {
    case 'unknown_outcome':
      return noAnswer(error, noAnswerCause(error, failure), context, config);
    case 'retry':
      // The table's one retry for a signed action: rate limited, refused before it executed.
      if (context.attempt < config.rateLimitedMaxAttempts) {
        return decision(error, 'retry_same_after_delay', 'in_flight', 'rate limited', config.rateLimitedDelayMs);
      }
      return decision(error, 'fail', 'refused', `still rate limited after ${context.attempt} attempts`);
    case 'refused':
      if (error instanceof VenueError) return venueRefusal(error, context, config);
      break;
    case 'give_up':
      if (error instanceof VenueTransportError && error.kind === 'Aborted') return aborted(error, context);
      break;
  }
  return decision(error, 'fail', 'unknown', 'an unexpected error, not a venue answer; the request may have executed');
}

/**
 * A decision on `error`: its own hints first, then the ones the venue layer attached to the error.
 * A module function, not a closure per failure.
 */
function decision(
  error: unknown,
  action: RetryAction,
  nonceFate: RetryDecision['nonceFate'],
  reason: string,
  delayMs = 0,
  hints: readonly string[] = [],
): RetryDecision {
  return { action, delayMs, nonceFate, reason, hints: [...hints, ...venueHints(error)], error };
}

/**
 * A nonce error or an expired deadline after an earlier send that got no definite answer may mean
 * that send executed.
 */
function afterUnansweredSend(context: FailureContext): boolean {
  return (context.unansweredBefore ?? context.attempt - 1) > 0;
}

function noAnswerCause(error: unknown, failure: ReturnType<typeof requestFailureOf>): string {
  if (failure === 'timeout') return 'the request timed out';
  if (failure === 'connection_failed') return 'the connection failed';
  return `the venue answered HTTP ${(error as VenueError).httpStatus}`;
}

/**
 * No definite answer: the same bytes again (the nonce makes that idempotent), unless the deadline
 * or the resends ran out.
 */
function noAnswer(error: unknown, what: string, context: FailureContext, config: RetryConfig): RetryDecision {
  if (context.deadlinePassed) {
    return decision(
      error,
      'confirm_landed',
      'unknown',
      `${what} and the permit deadline has passed: a resend would only expire, but the first send may have executed`,
    );
  }
  if (context.attempt <= config.maxResends) {
    return decision(
      error,
      'resend_identical',
      'in_flight',
      `${what}: resending the same signed request is idempotent thanks to its nonce`,
      config.resendDelayMs,
    );
  }
  return decision(error, 'fail', 'unknown', `${what} after ${context.attempt} sends; the outcome is unknown`, 0, [
    'confirm via the open orders or the orders channel before acting again',
  ]);
}

/** Aborted by the caller: whether these bytes left this process decides what the pair may have done. */
function aborted(error: VenueTransportError, context: FailureContext): RetryDecision {
  if (!error.requestSent) {
    // These bytes never left this process, so the pair was not consumed by this send; an earlier
    // unanswered send of the same bytes still may have consumed it.
    const fate = afterUnansweredSend(context) ? 'unknown' : 'refused';
    return decision(error, 'fail', fate, 'the request was aborted before it was sent');
  }
  return decision(error, 'fail', 'unknown', 'the request was aborted by the caller; it may have executed');
}

/** A definite answer from the venue, decided by its named cause. */
function venueRefusal(error: VenueError, context: FailureContext, config: RetryConfig): RetryDecision {
  switch (error.kind) {
    case 'SignerNotAuthorized':
      return decision(
        error,
        'stop_signer_not_authorized',
        'refused',
        'the venue recovered a signer that is not authorised for this account',
        0,
        SIGNER_HINTS,
      );
    case 'NonceUsed':
    case 'InvalidNonceAnchor':
    case 'InvalidNonceIndex':
    case 'PermitExpired':
      return nonceRefusal(error, error.kind, afterUnansweredSend(context));
    case 'AccountNotRegistered':
      return registrationLag(error, context, config);
    case 'AllowanceExpired':
    case 'OpenPositionExists':
    case 'PostOnlyWouldCross':
    case 'MarketOrderTimeInForce':
    case 'InvalidArgument':
      // A named refusal or revert is definite even when it comes with a 5xx: resending repeats it.
      return decision(error, 'fail', 'refused', `the venue refused the request (${error.kind})`);
    case 'Unauthenticated':
      return unauthenticated(error, context);
    case 'RateLimited':
    case 'Internal':
    case 'Unknown':
      return decision(
        error,
        'fail',
        'refused',
        `the venue refused the request (${error.kind}, HTTP ${error.httpStatus})`,
      );
  }
}

/**
 * The nonce or the permit refused. After a resend of bytes that got no answer the first send may
 * be what consumed the pair (or moved the anchor on): confirm before anything else. On a fresh
 * pair it is our view of the nonce state that is wrong: resync, or sign anew.
 */
function nonceRefusal(
  error: VenueError,
  kind: 'NonceUsed' | 'InvalidNonceAnchor' | 'InvalidNonceIndex' | 'PermitExpired',
  resend: boolean,
): RetryDecision {
  switch (kind) {
    case 'NonceUsed':
      return resend
        ? decision(error, 'confirm_landed', 'landed', 'NonceUsed on a resend: the first send most likely executed')
        : decision(
            error,
            'resync_nonces_then_resign',
            'landed',
            'NonceUsed on a fresh pair: something else consumed it; resync the nonce state',
          );
    case 'InvalidNonceAnchor':
      return resend
        ? decision(
            error,
            'confirm_landed',
            'unknown',
            'InvalidNonceAnchor on a resend: the anchor moved on, perhaps because the first send executed',
          )
        : decision(
            error,
            'resync_nonces_then_resign',
            'refused',
            'the anchor is no longer accepted; resync the nonce state',
          );
    case 'InvalidNonceIndex':
      return decision(
        error,
        'resync_nonces_then_resign',
        'refused',
        'the bit index was refused; resync the nonce state',
      );
    case 'PermitExpired':
      return resend
        ? decision(
            error,
            'confirm_landed',
            'unknown',
            'the permit expired on a resend; the first send may have executed',
          )
        : decision(error, 'resign_new_nonce', 'refused', 'the permit deadline passed before the venue saw it');
  }
}

/** Registration lag after the first deposit: the same request again, backing off, a bounded number of times. */
function registrationLag(error: VenueError, context: FailureContext, config: RetryConfig): RetryDecision {
  if (context.attempt < config.accountNotRegisteredMaxAttempts) {
    const delayMs = Math.min(
      config.accountNotRegisteredMaxDelayMs,
      config.accountNotRegisteredBaseDelayMs * 2 ** (context.attempt - 1),
    );
    return decision(
      error,
      'retry_same_after_delay',
      'in_flight',
      'the account is not registered yet (registration lag after the first deposit)',
      delayMs,
    );
  }
  return decision(
    error,
    'fail',
    'refused',
    `the account is still not registered after ${context.attempt} attempts`,
    0,
    ['deposit collateral first (testnet: POST /v1/account/deposit)'],
  );
}

/**
 * Refused before it executed. A JWT expires or is revoked (its lifetime is not shown): log in again
 * and send once more; a second refusal with a fresh token is final, as is any in permit mode.
 */
function unauthenticated(error: VenueError, context: FailureContext): RetryDecision {
  if (context.reauthentications === 0) {
    return decision(
      error,
      'reauthenticate_then_resend',
      'in_flight',
      'the venue refused the JWT (expired or revoked): logging in again, then sending once more',
    );
  }
  return decision(
    error,
    'fail',
    'refused',
    context.reauthentications === undefined
      ? 'the venue refused the request (Unauthenticated)'
      : 'the venue refused the request (Unauthenticated) also with a fresh JWT',
  );
}

function venueHints(error: unknown): readonly string[] {
  return error instanceof VenueError || error instanceof VenueTransportError ? error.hints : [];
}

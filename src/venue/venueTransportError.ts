import { screamingSnake } from '../core/errorCodes.js';
import { PerpbotError } from '../core/perpbotError.js';
import { VenueError } from './venueError.js';

export type VenueTransportErrorKind = 'Timeout' | 'Aborted' | 'ConnectionFailed';

/**
 * No HTTP answer came back: the request timed out, the caller aborted it, or the connection failed
 * (refused, reset mid-body). The request may or may not have reached the venue, so this is "no
 * definite answer", never "refused": a signed action may have executed.
 */
export class VenueTransportError extends PerpbotError {
  readonly kind: VenueTransportErrorKind;
  readonly endpoint: string;
  /** False only when the request provably never left (aborted while queued for the rate limit). */
  readonly requestSent: boolean;

  constructor(init: {
    kind: VenueTransportErrorKind;
    endpoint: string;
    timeoutMs?: number;
    cause?: unknown;
    requestSent?: boolean;
  }) {
    const requestSent = init.requestSent ?? true;
    const what =
      init.kind === 'Timeout'
        ? `timed out after ${init.timeoutMs ?? '?'} ms`
        : init.kind === 'Aborted'
          ? 'was aborted by the caller'
          : `could not reach the venue${describeCause(init.cause)}`;
    super(`${init.endpoint} ${what}${requestSent ? '; no definite answer' : ' before it was sent'}`, {
      code: `VENUE_${screamingSnake(init.kind)}`,
      details: { endpoint: init.endpoint, kind: init.kind, timeoutMs: init.timeoutMs, requestSent },
      hints: requestSent
        ? [
            'the request may have executed: check the nonce state or open orders before resending',
            'a resend signed with the same (anchor, bit) nonce cannot execute twice',
          ]
        : ['the request never reached the venue; it is safe to send it again'],
      cause: init.cause,
    });
    this.kind = init.kind;
    this.endpoint = init.endpoint;
    this.requestSent = requestSent;
  }
}

function describeCause(cause: unknown): string {
  const inner = cause instanceof Error && cause.cause instanceof Error ? cause.cause : cause;
  if (inner instanceof Error) {
    const code = (inner as { code?: unknown }).code;
    return typeof code === 'string' ? ` (${code})` : ` (${inner.message})`;
  }
  return '';
}

/**
 * True when the outcome of a request is unknown: a transport failure, or a 5xx answer (the venue
 * mines before replying, so a 5xx may follow an executed action). The engine must then reconcile
 * instead of treating the action as refused.
 */
export function hasNoDefiniteAnswer(error: unknown): boolean {
  if (error instanceof VenueTransportError) return error.requestSent;
  return error instanceof VenueError && error.mayHaveExecuted;
}

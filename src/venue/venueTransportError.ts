import { PerpbotError } from '../core/perpbotError.js';
import { VenueError } from './venueError.js';

export type VenueTransportErrorKind = 'Timeout' | 'Aborted' | 'ConnectionFailed';

/**
 * No HTTP answer came back: the request timed out, the caller aborted it, or the connection failed
 * (refused, reset mid-body). The request may or may not have reached the venue, so this is "no
 * definite answer", never "rejected": a signed action may have executed.
 */
export class VenueTransportError extends PerpbotError {
  readonly kind: VenueTransportErrorKind;
  readonly endpoint: string;

  constructor(init: { kind: VenueTransportErrorKind; endpoint: string; timeoutMs?: number; cause?: unknown }) {
    const what =
      init.kind === 'Timeout'
        ? `timed out after ${init.timeoutMs ?? '?'} ms`
        : init.kind === 'Aborted'
          ? 'was aborted by the caller'
          : `could not reach the venue${describeCause(init.cause)}`;
    super(`${init.endpoint} ${what}; no definite answer`, {
      code: `VENUE_${init.kind === 'ConnectionFailed' ? 'CONNECTION_FAILED' : init.kind.toUpperCase()}`,
      details: { endpoint: init.endpoint, kind: init.kind, timeoutMs: init.timeoutMs },
      hints: [
        'the request may have executed: check the nonce state or open orders before resending',
        'a resend signed with the same (anchor, bit) nonce cannot execute twice',
      ],
      cause: init.cause,
    });
    this.kind = init.kind;
    this.endpoint = init.endpoint;
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
 * instead of treating the action as rejected.
 */
export function hasNoDefiniteAnswer(error: unknown): boolean {
  if (error instanceof VenueTransportError) return true;
  return error instanceof VenueError && error.mayHaveExecuted;
}

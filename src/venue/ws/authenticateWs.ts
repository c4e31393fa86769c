import { bareLoginNonce } from '../schemas/restAuth.js';
import type { Clock } from '../../core/clock.js';
import { withRetry } from '../../core/withRetry.js';
import type { AuthV2Frame } from '../schemas/wsFramesClient.js';
import type { AuthReply } from '../schemas/wsFramesControl.js';
import { SIGNER_STATUS_ACTIVE, SignerNotActiveError, VenueWsError } from './venueWsError.js';

export type Hex = `0x${string}`;

/**
 * What the WS client needs to authenticate, injected so that it neither signs nor does HTTP:
 * the runtime wires it to the REST client (nonce, signer status) and the protocol signer
 * (RegisterV2 with the session key).
 */
export interface WsAuthenticator {
  readonly account: string;
  readonly signer: string;
  /** A fresh server nonce (GET /v1/auth/nonce), 0x-prefixed. */
  fetchNonce(): Promise<Hex>;
  /** RegisterV2(signer, message, nonce) signed by the session key. */
  sign(nonce: Hex): Promise<{ message: string; signature: Hex; expiration?: string }>;
  /** GET /v1/auth/session-key-status: 1 = Active. */
  signerStatus(): Promise<number>;
}

/** The spec: after an error reply, retry with a fresh nonce up to 3 times, 1 s apart. */
export const AUTH_RETRIES = 3;
export const AUTH_RETRY_DELAY_MS = 1000;
/**
 * A reply that has not come after this long was lost (a stalled stream discards frames): the frame
 * is sent again at once with a fresh nonce. Not a refusal, so the spec's three retries stay for
 * real refusals; the server may receive several auth_v2 frames in close succession (spec).
 */
export const AUTH_REPLY_TIMEOUT_MS = 1000;
/** Lost replies in a row before this connection's authentication is given up as transient. */
export const AUTH_LOST_REPLIES = 5;

/** The venue answered auth_v2 with an error: retried while the signer is active. */
class AuthRefused extends VenueWsError {}

/** No auth reply within the reply timeout; the caller's retries decide, and it is never a refusal. */
export class AuthReplyLostError extends VenueWsError {
  constructor(timeoutMs: number) {
    super(`no auth_v2 reply within ${timeoutMs} ms`, {
      code: 'WS_AUTH_NO_REPLY',
      details: { timeoutMs },
      hints: ['the stream may be stalled; the client sends a new auth_v2 frame'],
    });
  }
}

/**
 * Runs auth_v2 until the server says success. On an error reply the signer's on-chain status is
 * checked first: a signer that is not Active will never authenticate, so that stops at once with
 * a `SignerNotActiveError`; otherwise the attempt is repeated with a new nonce.
 */
export async function authenticateWs(deps: {
  readonly authenticator: WsAuthenticator;
  /**
   * Sends the frame and resolves with the server's auth reply (rejects if the connection drops,
   * `AuthReplyLostError` if none comes).
   */
  readonly exchange: (frame: AuthV2Frame) => Promise<AuthReply>;
  readonly clock: Clock;
  readonly signal?: AbortSignal;
  readonly onRefused?: (info: { attempt: number; message: string | undefined }) => void;
}): Promise<AuthReply> {
  const { authenticator: auth } = deps;
  let refusals = 0;
  let lostReplies = 0;
  return withRetry(
    async (attempt) => {
      const nonce = await auth.fetchNonce();
      const signed = await auth.sign(nonce);
      const reply = await deps.exchange({
        method: 'auth_v2',
        params: {
          account: auth.account,
          signer: auth.signer,
          message: signed.message,
          // As the venue sent it: 64 hex without 0x (venue-wire.md §3, auth_v2, live).
          nonce: bareLoginNonce(nonce),
          ...(signed.expiration === undefined ? {} : { expiration: signed.expiration }),
          signature: signed.signature,
        },
      });
      if (reply.status === 'success') return reply;
      deps.onRefused?.({ attempt, message: reply.message });
      const status = await auth.signerStatus();
      if (status !== SIGNER_STATUS_ACTIVE)
        throw new SignerNotActiveError(auth.signer, auth.account, status, reply.message);
      refusals++;
      throw new AuthRefused(`WebSocket auth_v2 refused ${refusals} time(s) although signer ${auth.signer} is Active`, {
        code: 'WS_AUTH_REFUSED',
        details: {
          account: auth.account,
          signer: auth.signer,
          attempts: refusals,
          ...(reply.message === undefined ? {} : { serverMessage: reply.message }),
        },
        hints: [
          'check that the RegisterV2 signature uses the session key and the venue EIP-712 domain, and that the nonce is fresh',
        ],
      });
    },
    {
      attempts: Number.POSITIVE_INFINITY,
      // A lost reply is sent again at once; a refusal 1 s later (spec).
      delayMs: (_attempt, error) => (error instanceof AuthReplyLostError ? 0 : AUTH_RETRY_DELAY_MS),
      shouldRetry: (error) => {
        if (error instanceof AuthReplyLostError) return ++lostReplies < AUTH_LOST_REPLIES;
        return error instanceof AuthRefused && refusals <= AUTH_RETRIES;
      },
      clock: deps.clock,
      ...(deps.signal === undefined ? {} : { signal: deps.signal }),
    },
  );
}

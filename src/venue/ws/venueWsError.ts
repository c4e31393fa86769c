import { PerpbotError, type PerpbotErrorOptions } from '../../core/perpbotError.js';

/**
 * Errors of the WebSocket client. Delivered to the subscribers of the channel concerned (never
 * thrown into unrelated streams). Codes:
 * - WS_UNKNOWN_MARKET: a requested market id is not one of the venue's markets.
 * - WS_FILTER_IGNORED: the ack applied all markets although a filter was requested.
 * - WS_FILTER_MISMATCH: the ack applied a different set of markets than requested.
 * - WS_CHANNEL_REFUSED: the server answered the subscription with an error frame.
 * - WS_AUTH_REFUSED: auth_v2 was refused on every attempt while the signer was Active.
 * - WS_SIGNER_NOT_ACTIVE: auth_v2 was refused and the signer is not Active on-chain.
 * - WS_NO_AUTHENTICATOR: a private channel was requested from a client built without one.
 * - WS_CLOSED: the client was closed.
 */
export class VenueWsError extends PerpbotError {
  constructor(message: string, options: PerpbotErrorOptions) {
    super(message, options);
  }
}

/** Signer status values from GET /v1/auth/session-key-status. */
export const SIGNER_STATUS_ACTIVE = 1;

/** WebSocket auth refused because the signer is not Active: private channels stop until resubscribed. */
export class SignerNotActiveError extends VenueWsError {
  readonly signer: string;
  readonly account: string;
  readonly status: number;

  constructor(signer: string, account: string, status: number, serverMessage?: string) {
    super(`WebSocket auth refused: signer ${signer} of account ${account} has status ${status}, not 1 (Active)`, {
      code: 'WS_SIGNER_NOT_ACTIVE',
      details: { signer, account, status, ...(serverMessage === undefined ? {} : { serverMessage }) },
      hints: [
        status === 3
          ? 'the signer was revoked: register a new signer (POST /v1/auth/register-signer) and configure it'
          : 'register the signer (POST /v1/auth/register-signer) and check GET /v1/auth/session-key-status',
      ],
    });
    this.signer = signer;
    this.account = account;
    this.status = status;
  }
}

export function clientClosedError(): VenueWsError {
  return new VenueWsError('the venue WebSocket client is closed', {
    code: 'WS_CLOSED',
    hints: ['create a new client'],
  });
}

/** The venue answered a subscription with an error frame (`invalid channel`, `authentication required`). */
export function channelRefusedError(channel: string, serverMessage: string, isPrivate: boolean): VenueWsError {
  return new VenueWsError(`${channel}: subscription refused by the venue: ${serverMessage}`, {
    code: 'WS_CHANNEL_REFUSED',
    details: { channel, serverMessage },
    hints: isPrivate ? ['private channels need a successful auth_v2 first'] : ['check the channel name'],
  });
}

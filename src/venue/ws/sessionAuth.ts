import type { Clock } from '../../core/clock.js';
import { exponentialBackoff } from '../../core/withRetry.js';
import { isTransientFailure } from '../rest/requestFaults.js';
import type { AuthV2Frame } from '../schemas/wsFramesClient.js';
import type { AuthReply } from '../schemas/wsFramesControl.js';
import { AuthReplyLostError, authenticateWs, type WsAuthenticator } from './authenticateWs.js';
import { VenueWsError } from './venueWsError.js';
import type { Logger } from '../../core/logger.js';

export interface SessionAuthDeps {
  readonly authenticator: WsAuthenticator | undefined;
  readonly clock: Clock;
  readonly signal: AbortSignal;
  readonly logger: Pick<Logger, 'debug' | 'warn'>;
  /** Sends on the current connection. */
  readonly send: (frame: AuthV2Frame) => void;
  readonly onAuthenticated: () => void;
  /** Auth cannot succeed (signer not Active, refused with an Active signer, no authenticator). */
  readonly onFailed: (error: unknown) => void;
  /** A transient failure (a nonce or status read that failed): the next try comes after `delayMs`. */
  readonly onRetrying?: (error: unknown, delayMs: number) => void;
  /** A reply that has not come after this long was lost: a new auth_v2 frame goes at once. */
  readonly replyTimeoutMs: number;
}

/**
 * The auth state of one connection at a time: runs `authenticateWs` at most once per connection,
 * matches auth replies to the frame in flight, and ignores results that arrive after the
 * connection they belong to has ended (the reconnect authenticates again).
 */
export class SessionAuth {
  private authenticated = false;
  private running = false;
  private pending: { resolve(reply: AuthReply): void; reject(error: Error): void } | undefined;
  private generation = 0;
  /** Transient failures in a row on this connection, for the backoff. */
  private transientFailures = 0;
  // Capped at 10 s: one GET per try is cheap, and the private feeds are down until it succeeds.
  private readonly backoff = exponentialBackoff({ baseMs: 1_000, maxMs: 10_000 });

  constructor(private readonly deps: SessionAuthDeps) {}

  get isAuthenticated(): boolean {
    return this.authenticated;
  }

  start(): void {
    if (this.authenticated || this.running) return;
    const { authenticator } = this.deps;
    if (authenticator === undefined) {
      this.deps.onFailed(
        new VenueWsError('a private channel needs an authenticator', {
          code: 'WS_NO_AUTHENTICATOR',
          hints: ['build the WebSocket client with an authenticator (account, signer, nonce, signing, signer status)'],
        }),
      );
      return;
    }
    this.running = true;
    const generation = this.generation;
    authenticateWs({
      authenticator,
      clock: this.deps.clock,
      signal: this.deps.signal,
      exchange: (frame) => this.exchange(generation, frame),
      onRefused: ({ attempt, message }) =>
        this.deps.logger.warn({ attempt, serverMessage: message }, 'venue WebSocket auth_v2 refused'),
    }).then(
      () => {
        if (generation !== this.generation) return;
        this.running = false;
        this.authenticated = true;
        this.transientFailures = 0;
        this.deps.onAuthenticated();
      },
      (error: unknown) => {
        if (generation !== this.generation || this.deps.signal.aborted) return;
        this.running = false;
        if (isTransientFailure(error) || error instanceof AuthReplyLostError) {
          this.retryLater(generation, error);
          return;
        }
        this.deps.logger.warn(
          { err: error instanceof Error ? error.message : String(error) },
          'venue WebSocket authentication failed',
        );
        this.deps.onFailed(error);
      },
    );
  }

  /**
   * A read the auth needs failed (the venue's bad minute, not a refusal): try again on the same
   * connection after a backoff, for as long as the connection lives. The connection stays
   * unauthenticated meanwhile, which the engine sees as its private feeds being down.
   */
  private retryLater(generation: number, error: unknown): void {
    this.transientFailures++;
    const delayMs = this.backoff(this.transientFailures);
    this.deps.logger.warn(
      { err: error instanceof Error ? error.message : String(error), attempt: this.transientFailures, delayMs },
      'venue WebSocket authentication hit a transient failure; retrying',
    );
    this.deps.onRetrying?.(error, delayMs);
    this.deps.clock.sleep(delayMs, this.deps.signal).then(
      () => {
        if (generation === this.generation) this.start();
      },
      () => undefined,
    );
  }

  /** Routes an auth reply; false when no auth frame was waiting for one. */
  onReply(reply: AuthReply): boolean {
    const pending = this.pending;
    this.pending = undefined;
    pending?.resolve(reply);
    return pending !== undefined;
  }

  /** The connection ended: forget everything and fail the frame in flight. */
  reset(reason: string): void {
    this.generation++;
    this.transientFailures = 0;
    this.authenticated = false;
    this.running = false;
    const pending = this.pending;
    this.pending = undefined;
    pending?.reject(
      new VenueWsError(`connection lost: ${reason}`, { code: 'WS_CONNECTION_LOST', details: { reason } }),
    );
  }

  private exchange(generation: number, frame: AuthV2Frame): Promise<AuthReply> {
    return new Promise<AuthReply>((resolve, reject) => {
      if (generation !== this.generation) {
        reject(new VenueWsError('connection lost before auth', { code: 'WS_CONNECTION_LOST' }));
        return;
      }
      const timer = new AbortController();
      const settle = (): void => timer.abort();
      this.pending = {
        resolve: (reply) => {
          settle();
          resolve(reply);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      };
      const pending = this.pending;
      this.deps.clock.sleep(this.deps.replyTimeoutMs, timer.signal).then(
        () => {
          if (this.pending !== pending) return;
          this.pending = undefined;
          reject(new AuthReplyLostError(this.deps.replyTimeoutMs));
        },
        () => undefined,
      );
      this.deps.send(frame);
    });
  }
}

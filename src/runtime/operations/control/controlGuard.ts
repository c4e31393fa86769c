import type { IncomingMessage } from 'node:http';
import type { Logger } from '../../../core/logger.js';
import { hostPolicy, isLoopbackHost } from './controlAccess.js';
import { bearerMatches } from './controlToken.js';
import { FailedTokenThrottle } from './failedTokenThrottle.js';

/** A refusal the control server sends as JSON. */
export interface GuardRefusal {
  readonly status: number;
  readonly body: { readonly error: string; readonly hints?: readonly string[] };
  readonly headers?: Readonly<Record<string, string>>;
}

export interface ControlGuardOptions {
  /** The address the server binds. */
  readonly host: string;
  readonly allowedHosts: readonly string[];
  readonly token: string | undefined;
  readonly tokenSource: string;
  readonly log: Pick<Logger, 'warn'>;
  readonly now: () => number;
}

/**
 * Who the control server answers: the Host check against DNS rebinding on every request, the
 * bearer token on the kill switch (and on every route when bound beyond loopback), and failed
 * token attempts logged (never the token) and throttled per remote address.
 */
export class ControlGuard {
  /** Bound beyond loopback: status, metrics and the dashboard need the token too. */
  readonly tokenEverywhere: boolean;
  private readonly hostAllowed: (header: string | undefined) => boolean;
  private readonly throttle: FailedTokenThrottle;

  constructor(private readonly o: ControlGuardOptions) {
    this.tokenEverywhere = !isLoopbackHost(o.host);
    this.hostAllowed = hostPolicy(o.host, o.allowedHosts);
    this.throttle = new FailedTokenThrottle(o.now);
  }

  /** Every request: the Host, then (beyond loopback) the token. Undefined: go on. */
  admit(req: IncomingMessage, path: string): GuardRefusal | undefined {
    if (!this.hostAllowed(req.headers.host)) {
      this.o.log.warn(
        { host: req.headers.host, path, remote: req.socket.remoteAddress },
        'control server: foreign Host refused',
      );
      return {
        status: 421,
        body: {
          error:
            'this control server answers only requests addressed to this machine (Host 127.0.0.1, localhost or [::1])',
          hints: ['reach it at http://127.0.0.1:<port>/, or list the name you use in control.allowed_hosts'],
        },
      };
    }
    return this.tokenEverywhere ? this.checkToken(req, path) : undefined;
  }

  /** The bearer token, throttled per remote address. Undefined: the token matched. */
  checkToken(req: IncomingMessage, path: string): GuardRefusal | undefined {
    const { token } = this.o;
    if (token === undefined)
      return {
        status: 403,
        body: {
          error: 'the kill-switch endpoint is disabled: no control token is configured',
          hints: [`set ${this.o.tokenSource} and restart the bot`],
        },
      };
    const remote = req.socket.remoteAddress ?? 'unknown';
    const waitMs = this.throttle.retryAfterMs(remote);
    if (waitMs > 0)
      return {
        status: 429,
        body: { error: 'too many requests with a wrong or missing token; try again later' },
        headers: { 'retry-after': String(Math.ceil(waitMs / 1000)) },
      };
    if (bearerMatches(req.headers.authorization, token)) {
      this.throttle.recordSuccess(remote);
      return undefined;
    }
    const failures = this.throttle.recordFailure(remote);
    this.o.log.warn(
      { remote, path, failures, sent: req.headers.authorization === undefined ? 'no token' : 'a wrong token' },
      'control server: request with a missing or wrong token refused',
    );
    return {
      status: 401,
      body: {
        // Not "bearer token": every answer passes the redactor, which takes the word after "bearer" for a credential.
        error: 'a valid control token is required',
        hints: ['send Authorization: Bearer <token>', `the token is the bot's ${this.o.tokenSource}`],
      },
      headers: { 'www-authenticate': 'Bearer realm="perpbot"' },
    };
  }
}

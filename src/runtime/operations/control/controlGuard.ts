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
 * Who the control server answers: the Host check against DNS rebinding on every request, a
 * request that changes something (the kill switch's POST) refused when it comes from another site
 * (a foreign `Origin` or `Sec-Fetch-Site`, or a body that is not JSON: what a page can send without
 * a CORS preflight), then the bearer token on the kill switch (and on every route when bound
 * beyond loopback). The token is compared first, so the valid one is never throttled; only
 * failures are counted, logged (never the token) and, past a handful a minute from one address,
 * answered 429 without a log line each.
 */
export class ControlGuard {
  /** Bound beyond loopback: status, metrics and the dashboard need the token too. */
  readonly tokenEverywhere: boolean;
  private readonly hostAllowed: (header: string | undefined) => boolean;
  private readonly throttle: FailedTokenThrottle;
  private readonly lastLogged = new Map<string, { at: number; suppressed: number }>();

  constructor(private readonly o: ControlGuardOptions) {
    this.tokenEverywhere = !isLoopbackHost(o.host);
    this.hostAllowed = hostPolicy(o.host, o.allowedHosts);
    this.throttle = new FailedTokenThrottle(o.now);
  }

  /** Every request: the Host, then a POST's site, then (beyond loopback) the token. Undefined: go on. */
  admit(req: IncomingMessage, path: string): GuardRefusal | undefined {
    const refused = this.refuseForeignHost(req, path) ?? this.refuseCrossSite(req, path);
    if (refused !== undefined) return refused;
    return this.tokenEverywhere ? this.checkToken(req, path) : undefined;
  }

  private refuseForeignHost(req: IncomingMessage, path: string): GuardRefusal | undefined {
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
    return undefined;
  }

  /**
   * A request that is not a read, sent by a page of another site: refused before its token is
   * looked at, so it neither counts against the address nor reaches the kill switch. A browser
   * names the page's origin on every POST; curl and scripts send none.
   */
  private refuseCrossSite(req: IncomingMessage, path: string): GuardRefusal | undefined {
    if (req.method === 'GET' || req.method === 'HEAD') return undefined;
    const reason = crossSiteReason(req);
    if (reason === undefined) return undefined;
    this.logQuietly(
      'cross-site',
      { remote: req.socket.remoteAddress, path, reason },
      'control server: cross-site request refused',
    );
    if (reason.startsWith('content type'))
      return {
        status: 415,
        body: {
          error: `the body must be JSON (Content-Type: application/json); got ${reason.slice('content type '.length)}`,
          hints: ['send -H "content-type: application/json" with curl'],
        },
      };
    return {
      status: 403,
      body: {
        error: `a request from another site is refused (${reason})`,
        hints: ['send it from this machine (curl), not from a web page'],
      },
    };
  }

  /** The bearer token; failures throttled per remote address. Undefined: the token matched. */
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
    // Compared before the throttle is asked: whoever else fails from this address (any local
    // process shares 127.0.0.1), the token's holder is never locked out of the kill switch.
    if (bearerMatches(req.headers.authorization, token)) return undefined;
    const remote = req.socket.remoteAddress ?? 'unknown';
    const waitMs = this.throttle.retryAfterMs(remote);
    if (waitMs > 0)
      return {
        status: 429,
        body: { error: 'too many requests with a wrong or missing token; try again later' },
        headers: { 'retry-after': String(Math.ceil(waitMs / 1000)) },
      };
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

  /** One line per kind a minute at most: a flood of refusals must not fill the disk with the same line. */
  private logQuietly(kind: string, fields: Record<string, unknown>, msg: string): void {
    const now = this.o.now();
    const last = this.lastLogged.get(kind);
    if (last !== undefined && now - last.at < 60_000) {
      last.suppressed++;
      return;
    }
    this.o.log.warn({ ...fields, ...(last === undefined ? {} : { suppressedSinceLast: last.suppressed }) }, msg);
    this.lastLogged.set(kind, { at: now, suppressed: 0 });
  }
}

/** Why a request that changes something looks sent by a page of another site; undefined when it does not. */
function crossSiteReason(req: IncomingMessage): string | undefined {
  const origin = req.headers.origin;
  if (origin !== undefined && originHost(origin) !== req.headers.host?.toLowerCase())
    return `Origin ${origin.slice(0, 100)} is not this server`;
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return `Sec-Fetch-Site ${site.slice(0, 20)}`;
  const type = req.headers['content-type'];
  if (type === undefined || !/^application\/json\s*(;|$)/i.test(type))
    return `content type ${type === undefined ? 'none' : type.slice(0, 100)}`;
  return undefined;
}

/** `host[:port]` of an Origin, lower case; undefined for `null` or what is not a URL. */
function originHost(origin: string): string | undefined {
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return undefined;
  }
}

import net from 'node:net';
import tls from 'node:tls';
import { abortError } from '../../core/abortError.js';
import { decodeBody, utf8 } from './httpBodyText.js';
import { HttpResponseParser, type ResponseHead } from './httpResponseParser.js';
import { BoundedMap } from '../../core/boundedMap.js';

/** One request as the REST client hands it over. */
export interface HttpCall {
  readonly method: 'GET' | 'POST';
  /** Absolute http:// or https:// URL. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
}

/** The answer's status, body text and `Retry-After`, read before the promise resolves. */
export interface HttpAnswer {
  readonly status: number;
  readonly text: string;
  readonly retryAfter: string | null;
}

/** The refusal when `timeoutMs` passed before the whole answer arrived. */
export class HttpTimeout extends DOMException {
  constructor(timeoutMs: number) {
    super(`timed out after ${timeoutMs} ms`, 'TimeoutError');
  }
}

/**
 * Idle connections are dropped after this long, or 1 s before the server's `Keep-Alive: timeout=`
 * when that is sooner.
 */
const IDLE_MS = 4_000;

interface Origin {
  readonly secure: boolean;
  /** For connecting: an IPv6 address without its brackets. */
  readonly hostname: string;
  readonly port: number;
  /** The Host field: host, and the port when it is not the scheme's default. */
  readonly hostHeader: string;
  /** Idle connections, the most recently used last (taken first: its socket is the least likely to be closing). */
  readonly idle: Connection[];
  sweep: NodeJS.Timeout | undefined;
  tlsSession: Buffer | undefined;
}

interface Target {
  readonly origin: Origin;
  /** Path and query as fetch would send them (normalised by the URL parser). */
  readonly path: string;
}

const origins = new Map<string, Origin>();
/**
 * Parsed targets by URL string: the order path sends to the same few URLs again and again, and
 * `new URL` costs more than the lookup. Cleared when full (query strings make URLs unbounded).
 */
const targets = new BoundedMap<string, Target>(512);

function targetOf(url: string): Target {
  const known = targets.get(url);
  if (known !== undefined) return known;
  const parsed = new URL(url);
  const secure = parsed.protocol === 'https:';
  if (!secure && parsed.protocol !== 'http:') throw new TypeError(`not an http(s) URL: ${url}`);
  let origin = origins.get(parsed.origin);
  if (origin === undefined) {
    origin = {
      secure,
      hostname: parsed.hostname.startsWith('[') ? parsed.hostname.slice(1, -1) : parsed.hostname,
      port: parsed.port === '' ? (secure ? 443 : 80) : Number(parsed.port),
      hostHeader: parsed.host,
      idle: [],
      sweep: undefined,
      tlsSession: undefined,
    };
    origins.set(parsed.origin, origin);
  }
  const target: Target = { origin, path: `${parsed.pathname}${parsed.search}` };
  targets.set(url, target);
  return target;
}

/**
 * The REST client's default HTTP/1.1 client: keep-alive TCP (or TLS) connections of its own,
 * each request written as one string in one socket write, the answer read by
 * `HttpResponseParser`. It does just what one venue exchange needs (method, headers, a JSON body,
 * a timeout and the caller's AbortSignal; status, body text and `Retry-After` back).
 *
 * Why not fetch or node:http: an order's latency is counted to its bytes on the socket, and on
 * this project's 2-core host, between two oracle frames (caches cold), the global fetch (undici:
 * a WHATWG Request, Headers, body stream and Response per call) took 60-200 µs from the call to
 * the write, and node:http's ClientRequest and Agent about 50 µs; this takes a fraction of that.
 *
 * It sends what fetch sent that a server may rely on (Host, keep-alive, `accept-encoding: gzip,
 * deflate` with gzip and deflate answers decoded, `user-agent: node` unless one is given) and
 * fails the way `restExchange` classifies failures: its timeout rejects with `HttpTimeout` (the
 * `TimeoutError` DOMException fetch gave), a caller abort with the signal's reason, a refused or
 * reset connection with node's system error (its `code`, e.g. ECONNREFUSED or ECONNRESET, is what
 * the error message shows). Nothing is retried here: a request is written once.
 */
export function nodeHttpSend(call: HttpCall): Promise<HttpAnswer> {
  return new Promise<HttpAnswer>((resolve, reject) => {
    const signal = call.signal;
    if (signal?.aborted === true) {
      reject(abortError(signal.reason));
      return;
    }
    // A malformed URL or header throws here, which rejects: nothing was written.
    const target = targetOf(call.url);
    const text = requestText(call, target);
    const connection = takeConnection(target.origin);
    const exchange = new Exchange(resolve, reject, signal, connection);
    connection.start(exchange, text);
    // After the write: the timer and the listener are not on the bytes' way out.
    exchange.arm(call.timeoutMs);
  });
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const BAD_VALUE = /[\r\n\0]/;
/** Set by the client itself; a caller's value is dropped, as fetch drops these forbidden names. */
const OWN_FIELDS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

/**
 * Header fields rendered once per frozen header set (the REST transport shares one per kind of
 * call): checked and joined on first use, a lookup afterwards.
 */
const renderedFields = new WeakMap<object, string>();

function requestText(call: HttpCall, target: Target): string {
  const head = `${call.method} ${target.path} HTTP/1.1\r\nhost: ${target.origin.hostHeader}\r\nconnection: keep-alive\r\n`;
  const headers = call.headers;
  let fields = renderedFields.get(headers);
  if (fields === undefined) {
    fields = headerFields(headers);
    if (Object.isFrozen(headers)) renderedFields.set(headers, fields);
  }
  const text = `${head}${fields}`;
  if (call.body !== undefined) return `${text}content-length: ${Buffer.byteLength(call.body)}\r\n\r\n${call.body}`;
  return call.method === 'POST' ? `${text}content-length: 0\r\n\r\n` : `${text}\r\n`;
}

/** The caller's fields, checked, with the defaults fetch sent; each line ends with CRLF. */
function headerFields(headers: Readonly<Record<string, string>>): string {
  let text = '';
  let userAgent = false;
  let acceptEncoding = false;
  for (const name in headers) {
    const value = headers[name]!;
    if (!TOKEN.test(name)) throw new TypeError(`invalid header name ${JSON.stringify(name)}`);
    if (BAD_VALUE.test(value)) throw new TypeError(`invalid value for header ${name}: it holds CR, LF or NUL`);
    const lower = name.toLowerCase();
    if (OWN_FIELDS.has(lower)) continue;
    if (lower === 'user-agent') userAgent = true;
    else if (lower === 'accept-encoding') acceptEncoding = true;
    text += `${name}: ${value}\r\n`;
  }
  if (!userAgent) text += 'user-agent: node\r\n';
  if (!acceptEncoding) text += 'accept-encoding: gzip, deflate\r\n';
  return text;
}

function takeConnection(origin: Origin): Connection {
  const now = Date.now();
  for (let idle = origin.idle.pop(); idle !== undefined; idle = origin.idle.pop()) {
    if (idle.usable(now)) return idle;
    idle.destroy();
  }
  return new Connection(origin);
}

/** Drops the origin's connections idle past their keep-alive; runs while any is idle. */
function sweepIdle(origin: Origin): void {
  origin.sweep = undefined;
  const now = Date.now();
  for (const connection of [...origin.idle]) if (!connection.usable(now)) connection.destroy();
  scheduleSweep(origin);
}

function scheduleSweep(origin: Origin): void {
  if (origin.sweep !== undefined || origin.idle.length === 0) return;
  origin.sweep = setTimeout(sweepIdle, IDLE_MS, origin);
  origin.sweep.unref();
}

function hangUp(): Error {
  return Object.assign(new Error('socket hang up: the connection closed before the answer was complete'), {
    code: 'ECONNRESET',
  });
}

/** One keep-alive connection, carrying one exchange at a time. */
class Connection {
  private readonly socket: net.Socket;
  private exchange: Exchange | undefined;
  private parser: HttpResponseParser | undefined;
  private closed = false;
  private idleSince = 0;
  private keepAliveMs = IDLE_MS;

  constructor(private readonly origin: Origin) {
    const { hostname, port } = origin;
    const socket = origin.secure
      ? tls.connect({
          host: hostname,
          port,
          ALPNProtocols: ['http/1.1'],
          ...(net.isIP(hostname) === 0 ? { servername: hostname } : {}),
          ...(origin.tlsSession === undefined ? {} : { session: origin.tlsSession }),
        })
      : net.connect({ host: hostname, port });
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 1_000);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (error: Error) => this.onError(error));
    socket.on('close', () => this.onClose());
    // The server closed its side: never reuse; an answer in progress ends with 'close'.
    socket.on('end', () => {
      if (this.exchange === undefined) this.destroy();
    });
    if (origin.secure) socket.on('session', (session: Buffer) => (origin.tlsSession = session));
    this.socket = socket;
  }

  usable(now: number): boolean {
    return !this.closed && !this.socket.destroyed && this.socket.writable && now - this.idleSince < this.keepAliveMs;
  }

  start(exchange: Exchange, text: string): void {
    this.exchange = exchange;
    // The answer's parser is made when its first bytes arrive: nothing but the write before the bytes leave.
    this.parser = undefined;
    this.socket.ref();
    // Written while connecting, it goes out once connected.
    this.socket.write(text);
  }

  /** Closes the connection; an exchange on it must already have settled or be failing. */
  destroy(): void {
    this.exchange = undefined;
    this.forget();
    this.socket.destroy();
  }

  /**
   * The exchange on this connection settled early (timeout, abort): the answer is not read to its
   * end, so the connection goes.
   */
  abandon(exchange: Exchange): void {
    if (this.exchange === exchange) this.destroy();
  }

  private onData(chunk: Buffer): void {
    const exchange = this.exchange;
    if (exchange === undefined) {
      // Bytes nobody asked for: the connection is out of step.
      this.destroy();
      return;
    }
    const parser = (this.parser ??= new HttpResponseParser());
    let complete: boolean;
    try {
      complete = parser.push(chunk);
    } catch (error) {
      exchange.fail(error);
      return;
    }
    if (complete) this.finish(exchange, parser);
  }

  private finish(exchange: Exchange, parser: HttpResponseParser): void {
    this.exchange = undefined;
    this.parser = undefined;
    const head = parser.head!;
    if (parser.reusable && !this.closed) this.release(head);
    else this.destroy();
    exchange.succeed(head, parser.body());
  }

  private release(head: ResponseHead): void {
    const hintMs = head.keepAliveTimeoutS === undefined ? IDLE_MS : head.keepAliveTimeoutS * 1_000 - 1_000;
    this.keepAliveMs = Math.min(IDLE_MS, hintMs);
    if (this.keepAliveMs <= 0) {
      this.destroy();
      return;
    }
    this.idleSince = Date.now();
    // Idle sockets never keep the process alive.
    this.socket.unref();
    this.origin.idle.push(this);
    scheduleSweep(this.origin);
  }

  private onError(error: Error): void {
    const exchange = this.exchange;
    this.forget();
    if (exchange !== undefined) exchange.fail(error);
  }

  private onClose(): void {
    const exchange = this.exchange;
    const parser = this.parser;
    this.forget();
    if (exchange === undefined) return;
    // An answer framed by the end of the connection is complete now; any other is cut short.
    if (parser?.end() === true) this.finish(exchange, parser);
    else exchange.fail(hangUp());
  }

  private forget(): void {
    this.closed = true;
    const at = this.origin.idle.indexOf(this);
    if (at >= 0) this.origin.idle.splice(at, 1);
  }
}

/** One request's promise, timer and abort listener (the listener is this object: no closure per request). */
class Exchange {
  private settled = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly resolve: (answer: HttpAnswer) => void,
    private readonly reject: (error: unknown) => void,
    private readonly signal: AbortSignal | undefined,
    private readonly connection: Connection,
  ) {}

  /** Starts the timeout and follows the caller's signal. */
  arm(timeoutMs: number): void {
    if (this.settled) return;
    this.timer = setTimeout(onTimeout, timeoutMs, this, timeoutMs);
    this.signal?.addEventListener('abort', this, { once: true });
  }

  /** The caller's signal aborted. */
  handleEvent(): void {
    this.fail(abortError(this.signal?.reason));
  }

  fail(error: unknown): void {
    if (this.settled) return;
    this.end();
    this.connection.abandon(this);
    this.reject(error);
  }

  succeed(head: ResponseHead, body: Buffer): void {
    if (this.settled) return;
    const coding = head.contentEncoding?.trim().toLowerCase();
    if (coding === undefined || coding === '' || coding === 'identity') {
      this.end();
      this.resolve({ status: head.status, text: utf8(body), retryAfter: head.retryAfter });
      return;
    }
    // Still timed: fetch's timeout covered reading (and decoding) the body too.
    decodeBody(body, coding).then(
      (plain) => {
        if (this.settled) return;
        this.end();
        this.resolve({ status: head.status, text: utf8(plain), retryAfter: head.retryAfter });
      },
      (error: unknown) => this.fail(error),
    );
  }

  private end(): void {
    this.settled = true;
    clearTimeout(this.timer);
    this.signal?.removeEventListener('abort', this);
  }
}

function onTimeout(exchange: Exchange, timeoutMs: number): void {
  exchange.fail(new HttpTimeout(timeoutMs));
}

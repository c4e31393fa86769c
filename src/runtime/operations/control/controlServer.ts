import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { PerpbotError } from '../../../core/perpbotError.js';
import type { Logger } from '../../../core/logger.js';
import { redactJson, redactText } from '../../../core/redactor.js';
import type { BotControl } from './botControl.js';
import { limitConnections } from './controlConnections.js';
import { ControlGuard, type GuardRefusal } from './controlGuard.js';
import { dashboardAsset } from './dashboardAssets.js';

export interface ControlServerOptions {
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly control: BotControl;
  /** Guards POST /api/kill-switch; undefined: the endpoint refuses every request. */
  readonly token: string | undefined;
  /** Where the token comes from, for the refusal's hint (never the token). */
  readonly tokenSource: string;
  readonly log: Pick<Logger, 'info' | 'warn'>;
  /** How often the dashboard's event stream gets a fresh status (default 1 s). */
  readonly pushEveryMs?: number;
  /** Host names besides loopback's that the server answers (`control.allowed_hosts`). */
  readonly allowedHosts?: readonly string[];
  /** Open connections at most (default 64); idle ones give way to a newcomer (controlConnections.ts). */
  readonly maxConnections?: number;
  /** Idle and request deadlines of a connection (default `CONNECTION_DEADLINES`: 5 s, 10 s). */
  readonly connectionDeadlines?: { readonly idleMs: number; readonly requestMs: number };
  readonly now?: () => number;
}

export interface ControlServer {
  readonly url: string;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 4096;
const killSwitchBody = z.strictObject({ action: z.enum(['trip', 'reset']), reason: z.string().max(200).optional() });

const SECURITY_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  // The dashboard loads its script, styles and data from the bot only.
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'",
} as const;

/**
 * The bot's control server: health and readiness for a supervisor or a load balancer, Prometheus
 * metrics, the status as JSON, a live dashboard, and the kill switch behind a bearer token. It
 * binds loopback unless told otherwise. Every answer passes through the one redactor (keys,
 * signatures and tokens have no business in a status, and this makes sure none slips out).
 */
export async function startControlServer(options: ControlServerOptions): Promise<ControlServer> {
  const guard = new ControlGuard({
    host: options.host,
    allowedHosts: options.allowedHosts ?? [],
    token: options.token,
    tokenSource: options.tokenSource,
    log: options.log,
    now: options.now ?? Date.now,
  });
  if (guard.tokenEverywhere) refuseOpenToTheNetwork(options);
  const events = new EventClients(options.control, options.pushEveryMs ?? 1_000);
  const server = createServer((req, res) => {
    route(req, res, { ...options, guard }, events).catch((error: unknown) => {
      options.log.warn({ err: error, path: req.url }, 'control server request failed');
      if (!res.headersSent) sendJson(res, 500, { error: 'internal error; see the bot log' });
      else res.end();
    });
  });
  limitConnections(server, options.maxConnections ?? 64, options.connectionDeadlines);
  try {
    await listen(server, options.port, options.host);
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : 'error';
    throw new PerpbotError(`the control server could not listen on ${options.host}:${options.port} (${code})`, {
      code: 'CONTROL_LISTEN',
      details: { host: options.host, port: options.port },
      hints: [
        'choose another control.port (or --control-port), or 0 for a free one',
        'check control.host names an address of this machine',
      ],
      cause: error,
    });
  }
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  options.log.info(
    { url, killSwitchEndpoint: options.token === undefined ? 'disabled (no token)' : 'enabled' },
    'control server listening',
  );
  return {
    url,
    close: async () => {
      events.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/**
 * Bound beyond loopback, status, metrics and the dashboard would go to the network: only with a
 * token, which every route then needs, and with a warning, since plain HTTP carries it in clear.
 */
function refuseOpenToTheNetwork(options: ControlServerOptions): void {
  if (options.token === undefined)
    throw new PerpbotError(
      `control.host ${options.host} is not a loopback address, and no control token is configured: status, metrics and the dashboard would be open to the network`,
      {
        code: 'CONTROL_TOKEN',
        details: { host: options.host },
        hints: [
          `set ${options.tokenSource}: every route then needs it`,
          'or keep control.host 127.0.0.1 and reach it through a TLS reverse proxy or an SSH tunnel',
        ],
      },
    );
  options.log.warn(
    { host: options.host },
    'the control server listens beyond this machine: every route needs the token, which plain HTTP carries in clear; put a TLS reverse proxy in front',
  );
}

async function route(
  req: IncomingMessage,
  res: ServerResponse,
  options: ControlServerOptions & { readonly guard: ControlGuard },
  events: EventClients,
): Promise<void> {
  const { control, guard } = options;
  const path = new URL(req.url ?? '/', 'http://control').pathname;
  const refused = guard.admit(req, path);
  if (refused !== undefined) return sendRefusal(res, refused);
  if (path === '/api/kill-switch') {
    if (req.method !== 'POST') return methodNotAllowed(res, 'POST');
    return killSwitch(req, res, options, guard);
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') return methodNotAllowed(res, 'GET');
  switch (path) {
    case '/health':
      return sendJson(res, 200, { status: 'alive', pid: process.pid, uptimeSeconds: Math.floor(process.uptime()) });
    case '/ready': {
      const readiness = control.readiness();
      return sendJson(res, readiness.ready ? 200 : 503, readiness);
    }
    case '/metrics': {
      const metrics = await control.renderMetrics();
      res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': metrics.contentType });
      res.end(redactText(metrics.text));
      return;
    }
    case '/api/status':
      return sendJson(res, 200, control.status() ?? control.startingStatus());
    case '/api/history':
      return sendJson(res, 200, { points: control.history() });
    case '/api/events':
      events.add(res);
      return;
  }
  const asset = dashboardAsset(path);
  if (asset === undefined)
    return sendJson(res, 404, {
      error: `no such endpoint: ${path}`,
      endpoints: [
        '/health',
        '/ready',
        '/metrics',
        '/api/status',
        '/api/history',
        '/api/events',
        '/',
        'POST /api/kill-switch',
      ],
    });
  const { contentType, body } = await asset;
  res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': contentType, 'content-length': body.length });
  res.end(req.method === 'HEAD' ? undefined : body);
}

async function killSwitch(
  req: IncomingMessage,
  res: ServerResponse,
  options: ControlServerOptions,
  guard: ControlGuard,
): Promise<void> {
  // Checked already on every route beyond loopback.
  const refused = guard.tokenEverywhere ? undefined : guard.checkToken(req, '/api/kill-switch');
  if (refused !== undefined) return sendRefusal(res, refused);
  const text = await readBody(req);
  if (text === undefined) return sendJson(res, 413, { error: `the body is larger than ${MAX_BODY_BYTES} bytes` });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return sendJson(res, 400, {
      error: 'the body is not JSON',
      hints: ['send {"action":"trip"} or {"action":"reset"}'],
    });
  }
  const body = killSwitchBody.safeParse(parsed);
  if (!body.success)
    return sendJson(res, 400, {
      error: `invalid body: ${body.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')}`,
      hints: ['send {"action":"trip"|"reset", "reason"?: string}'],
    });
  const reason = `kill switch ${body.data.action === 'trip' ? 'tripped' : 'reset'} through the control server${body.data.reason === undefined ? '' : `: ${redactText(body.data.reason)}`}`;
  const answer = options.control.killSwitch(body.data.action, reason);
  if (!answer.ok) return sendJson(res, answer.httpStatus, { error: answer.error });
  options.log.warn({ action: body.data.action, reason, remote: req.socket.remoteAddress }, reason);
  return sendJson(res, 200, { action: body.data.action, killSwitch: answer.killSwitch });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = redactJson(body);
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

function sendRefusal(res: ServerResponse, refusal: GuardRefusal): void {
  for (const [name, value] of Object.entries(refusal.headers ?? {})) res.setHeader(name, value);
  sendJson(res, refusal.status, refusal.body);
}

function methodNotAllowed(res: ServerResponse, allowed: string): void {
  res.setHeader('allow', allowed === 'GET' ? 'GET, HEAD' : allowed);
  sendJson(res, 405, { error: `method not allowed; use ${allowed}` });
}

/** The body as text, or undefined past MAX_BODY_BYTES. */
async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * The dashboard's server-sent events: the equity history once on connect, then a status every
 * `everyMs` to every open page, and at once when the trading state changes (a tripped kill switch
 * shows on the page as soon as on /api/status, not up to a tick later). One snapshot per push
 * serves all pages; the timer runs only while a page is open.
 */
class EventClients {
  private readonly clients = new Set<ServerResponse>();
  private timer: NodeJS.Timeout | undefined;
  private pushQueued = false;
  private readonly stopWatching: () => void;

  constructor(
    private readonly control: BotControl,
    private readonly everyMs: number,
  ) {
    this.stopWatching = control.onTradingState(() => this.pushSoon());
  }

  add(res: ServerResponse): void {
    // Set, not only written: the connection deadlines (controlConnections.ts) read it to let a stream live.
    res.setHeader('content-type', 'text/event-stream; charset=utf-8');
    res.writeHead(200, { ...SECURITY_HEADERS, connection: 'keep-alive' });
    res.write('retry: 2000\n\n');
    res.write(frame('history', { points: this.control.history() }));
    res.write(frame('status', this.control.status() ?? this.control.startingStatus()));
    this.clients.add(res);
    res.on('close', () => {
      this.clients.delete(res);
      if (this.clients.size === 0) this.stop();
    });
    this.timer ??= setInterval(() => this.push(), this.everyMs);
  }

  close(): void {
    this.stopWatching();
    this.stop();
    for (const res of this.clients) res.end();
    this.clients.clear();
  }

  /** After the turn that changed the state: one push however many changes it made. */
  private pushSoon(): void {
    if (this.pushQueued || this.clients.size === 0) return;
    this.pushQueued = true;
    setImmediate(() => {
      this.pushQueued = false;
      this.push();
    });
  }

  private push(): void {
    const text = frame('status', this.control.status() ?? this.control.startingStatus());
    for (const res of this.clients) res.write(text);
  }

  private stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }
}

function frame(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${redactJson(data)}\n\n`;
}

import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { BehaviorSubject } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TradingState } from '../../../../src/engine/admission/tradingConditions.js';
import { BotControl } from '../../../../src/runtime/operations/control/botControl.js';
import type { BotMonitor } from '../../../../src/runtime/operations/control/botMonitor.js';
import { startControlServer, type ControlServer } from '../../../../src/runtime/operations/control/controlServer.js';
import { BotMetrics } from '../../../../src/runtime/operations/metrics/botMetrics.js';

const TOKEN = 'control-test-token-0123456789';

interface Answer {
  readonly status: number;
  readonly body: string;
  readonly headers: Record<string, string | string[] | undefined>;
}

/** A raw request: fetch cannot set Host, which is the point here. */
function call(
  url: string,
  path: string,
  headers: Record<string, string>,
  method = 'GET',
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        // The event stream never ends: its first event is enough.
        if (path === '/api/events') res.destroy();
      });
      res.on('close', () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the control server answers only this machine', () => {
  let server: ControlServer | undefined;
  const warnings: { fields: Record<string, unknown>; msg: string }[] = [];
  const log = {
    info: () => undefined,
    warn: (fields: Record<string, unknown>, msg: string) => warnings.push({ fields, msg }),
  };
  const start = (o: { host?: string; token?: string; allowedHosts?: string[]; idleMs?: number } = {}) =>
    startControlServer({
      host: o.host ?? '127.0.0.1',
      port: 0,
      control: new BotControl(new BotMetrics()),
      token: o.token,
      tokenSource: 'environment variable PERPBOT_CONTROL_TOKEN',
      log,
      ...(o.allowedHosts === undefined ? {} : { allowedHosts: o.allowedHosts }),
      ...(o.idleMs === undefined ? {} : { connectionDeadlines: { idleMs: o.idleMs, requestMs: 2 * o.idleMs } }),
    });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    warnings.length = 0;
  });

  it('refuses a foreign Host with 421 on every route, and answers loopback names', async () => {
    server = await start({ token: TOKEN });
    const port = new URL(server.url).port;
    for (const path of ['/api/status', '/metrics', '/api/events', '/', '/health']) {
      const foreign = await call(server.url, path, { host: `rebind.evil.test:${port}` });
      expect(foreign.status, path).toBe(421);
      expect(foreign.body).not.toContain('starting');
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      const status = await call(server.url, '/api/status', { host });
      expect(status.status).toBe(200);
      expect(JSON.parse(status.body)).toMatchObject({ phase: 'starting' });
    }
    expect(warnings.some((w) => w.msg === 'control server: foreign Host refused')).toBe(true);
  });

  it('answers a name the operator lists', async () => {
    server = await start({ allowedHosts: ['bot.internal'] });
    expect((await call(server.url, '/health', { host: 'bot.internal:1' })).status).toBe(200);
    expect((await call(server.url, '/health', { host: 'bot.other:1' })).status).toBe(421);
  });

  it('refuses to bind beyond loopback without a token, and with one asks for it on every route', async () => {
    await expect(start({ host: '0.0.0.0' })).rejects.toMatchObject({ code: 'CONTROL_TOKEN' });
    server = await start({ host: '0.0.0.0', token: TOKEN });
    expect(warnings.some((w) => w.msg.includes('put a TLS reverse proxy in front'))).toBe(true);
    const url = server.url.replace('0.0.0.0', '127.0.0.1');
    expect((await call(url, '/api/status', { host: 'bot.example' })).status).toBe(401);
    expect((await call(url, '/metrics', { host: 'bot.example' })).status).toBe(401);
    const ok = await call(url, '/api/status', { host: 'bot.example', authorization: `Bearer ${TOKEN}` });
    expect(ok.status).toBe(200);
  });

  it('logs failed kill-switch attempts without the token and throttles them (429 with Retry-After), never the valid token', async () => {
    server = await start({ token: TOKEN });
    const wrong = 'wrong-token-value-9876543210';
    const attempt = () =>
      call(
        server?.url ?? '',
        '/api/kill-switch',
        { host: '127.0.0.1', authorization: `Bearer ${wrong}`, 'content-type': 'application/json' },
        'POST',
        '{"action":"trip"}',
      );
    for (let i = 0; i < 5; i++) expect((await attempt()).status).toBe(401);
    const throttled = await attempt();
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    // Any local process shares 127.0.0.1: its failures never lock the token's holder out.
    const right = await call(
      server.url,
      '/api/kill-switch',
      { host: '127.0.0.1', authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      'POST',
      '{"action":"trip"}',
    );
    // Past the guard: the bot itself answers (this one is still starting; the e2e trips a running one).
    expect(right.status).toBe(503);
    expect(JSON.parse(right.body)).toMatchObject({ error: expect.stringContaining('the bot is starting') });
    expect((await attempt()).status).toBe(429);
    const refusals = warnings.filter((w) => w.msg === 'control server: request with a missing or wrong token refused');
    expect(refusals).toHaveLength(5);
    expect(refusals[4]?.fields).toMatchObject({ failures: 5, path: '/api/kill-switch', sent: 'a wrong token' });
    expect(JSON.stringify(warnings)).not.toContain(wrong);
  });

  it('refuses a cross-site POST (foreign Origin, Sec-Fetch-Site, a body not declared JSON) before it counts against the address', async () => {
    server = await start({ token: TOKEN });
    const port = new URL(server.url).port;
    const post = (headers: Record<string, string>) =>
      call(
        server?.url ?? '',
        '/api/kill-switch',
        { host: `127.0.0.1:${port}`, ...headers },
        'POST',
        '{"action":"trip"}',
      );
    for (let i = 0; i < 20; i++) {
      expect((await post({ origin: 'http://evil.test', 'content-type': 'text/plain' })).status).toBe(403);
      expect((await post({ 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' })).status).toBe(403);
      expect((await post({ 'content-type': 'text/plain;charset=UTF-8' })).status).toBe(415);
      expect((await post({})).status).toBe(415);
    }
    expect(JSON.parse((await post({ 'content-type': 'text/plain' })).body)).toMatchObject({
      error: 'the body must be JSON (Content-Type: application/json); got text/plain',
    });
    expect(warnings.filter((w) => w.msg === 'control server: request with a missing or wrong token refused')).toEqual(
      [],
    );
    // One line a minute, however many came.
    expect(warnings.filter((w) => w.msg === 'control server: cross-site request refused')).toHaveLength(1);
    // Same origin (the server's own Host) and the token: the trip goes through.
    const trip = await post({
      origin: `http://127.0.0.1:${port}`,
      'content-type': 'application/json',
      authorization: `Bearer ${TOKEN}`,
    });
    expect(trip.status).toBe(503);
    // A GET never needs a content type.
    expect((await call(server.url, '/health', { host: '127.0.0.1', origin: 'http://evil.test' })).status).toBe(200);
  });

  it("pushes a status down the dashboard's event stream as soon as the trading state changes, not at the next tick", async () => {
    const control = new BotControl(new BotMetrics());
    const state$ = new BehaviorSubject<TradingState>({ mode: 'trading', reasons: [], sinceMs: 0, reconciling: false });
    const monitor = { status: () => ({ mode: state$.value.mode }), equityHistory: () => [] };
    control.attach(monitor as unknown as BotMonitor, {
      killSwitch: { tripped: false },
      conditions: { state: state$.value },
      tradingState$: state$,
      tripKillSwitch: () => undefined,
      resetKillSwitch: () => undefined,
    });
    server = await startControlServer({
      host: '127.0.0.1',
      port: 0,
      control,
      token: undefined,
      tokenSource: 'none',
      log,
      pushEveryMs: 600_000,
    });
    let text = '';
    const req = request(`${server.url}/api/events`, { headers: { host: '127.0.0.1' } }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
    });
    req.on('error', () => undefined);
    req.end();
    const modes = () => [...text.matchAll(/event: status\ndata: \{"mode":"(\w+)"/g)].map((m) => m[1]);
    try {
      await vi.waitFor(() => expect(modes()).toEqual(['trading']));
      state$.next({ mode: 'halted', reasons: ['kill switch: drill'], sinceMs: 1, reconciling: false });
      state$.next({ mode: 'halted', reasons: ['kill switch: drill', 'budget'], sinceMs: 1, reconciling: false });
      // The tick is ten minutes away: only the change can have pushed it, once for the turn's two.
      await vi.waitFor(() => expect(modes()).toEqual(['trading', 'halted']));
      await new Promise((resolve) => setImmediate(resolve));
      expect(modes()).toEqual(['trading', 'halted']);
    } finally {
      req.destroy();
    }
  });

  it("keeps the dashboard's event stream open past the request deadline (only a stream lives on)", async () => {
    server = await start({ token: TOKEN, idleMs: 100 });
    const frames: string[] = [];
    let ended = false;
    const req = request(`${server.url}/api/events`, { headers: { host: '127.0.0.1' } }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => frames.push(chunk));
      res.on('close', () => (ended = true));
    });
    req.on('error', () => undefined);
    req.end();
    try {
      await vi.waitFor(() => expect(frames.length).toBeGreaterThan(0));
      // The request deadline here is 200 ms: the stream is still open well past it.
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(ended).toBe(false);
    } finally {
      req.destroy();
    }
  });

  it('keeps answering health and the kill switch while 64 idle connections are held open, and times out a slow sender', async () => {
    server = await start({ token: TOKEN, idleMs: 500 });
    const { port } = new URL(server.url);
    const idle: Socket[] = [];
    const closed = new Set<Socket>();
    for (let i = 0; i < 64; i++) {
      const socket = connect(Number(port), '127.0.0.1');
      socket.on('error', () => undefined);
      socket.resume();
      socket.on('close', () => closed.add(socket));
      await new Promise((resolve) => socket.once('connect', resolve));
      idle.push(socket);
    }
    const slow = connect(Number(port), '127.0.0.1');
    slow.on('error', () => undefined);
    await new Promise((resolve) => slow.once('connect', resolve));
    const slowSince = Date.now();
    const slowClosedAfter = new Promise<number>((resolve) => slow.once('close', () => resolve(Date.now() - slowSince)));
    slow.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    try {
      expect((await call(server.url, '/health', { host: '127.0.0.1' })).status).toBe(200);
      const trip = await call(
        server.url,
        '/api/kill-switch',
        { host: '127.0.0.1', authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        'POST',
        '{"action":"trip"}',
      );
      expect(trip.status).toBe(503);
      // The oldest idle connections gave way to them.
      expect(closed.size).toBeGreaterThan(0);
      // A sender that never finishes its headers is cut off, and so is every idle connection.
      expect(await slowClosedAfter).toBeLessThan(3_000);
      await vi.waitFor(() => expect(closed.size).toBe(64), { timeout: 3_000 });
    } finally {
      for (const socket of [...idle, slow]) socket.destroy();
    }
  }, 15_000);
});

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../../src/core/clock.js';
import { registerSecret } from '../../../../src/core/secretRegistry.js';
import { DEFAULT_ALERT_EVENTS, type AlertEvent } from '../../../../src/runtime/config/alertEvents.js';
import { WebhookAlerts, type AlertResult } from '../../../../src/runtime/operations/alerts/webhookAlerts.js';
import { forceGc } from '../../../core/support/forceGc.js';

interface Receiver {
  readonly url: string;
  readonly bodies: Record<string, unknown>[];
  /** Answers for the next requests, in order (then 200). */
  readonly answers: number[];
  hang: boolean;
  close(): Promise<void>;
}

async function receiver(): Promise<Receiver> {
  const state = { bodies: [] as Record<string, unknown>[], answers: [] as number[], hang: false };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      if (state.hang) return;
      state.bodies.push(JSON.parse(text) as Record<string, unknown>);
      res.writeHead(state.answers.shift() ?? 200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/hooks/T000/B000/secret-path`,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  });
}

/** A port nothing listens on: a receiver that is down. */
async function downUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((r) => server.close(() => r()));
  return `http://127.0.0.1:${port}/hook`;
}

const warnings: { obj: object; msg?: string }[] = [];
const log = {
  info: () => undefined,
  warn: (obj: object, msg?: string) => void warnings.push({ obj, ...(msg === undefined ? {} : { msg }) }),
};

function alertsTo(
  url: string,
  results: [AlertEvent, AlertResult][],
  extra: Partial<ConstructorParameters<typeof WebhookAlerts>[0]> = {},
): WebhookAlerts {
  return new WebhookAlerts({
    url,
    events: new Set(DEFAULT_ALERT_EVENTS),
    bot: '0xabc…',
    clock: systemClock,
    log,
    timeoutMs: 1_000,
    attempts: 3,
    backoff: { baseMs: 20, maxMs: 40 },
    onResult: (event, result) => results.push([event, result]),
    ...extra,
  });
}

async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('webhook alerts against a local HTTP receiver', () => {
  const closing: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closing.splice(0)) await close();
    warnings.length = 0;
  });

  it('posts JSON with a text field, for the configured events only (fills are off by default)', async () => {
    const hook = await receiver();
    closing.push(hook.close);
    const results: [AlertEvent, AlertResult][] = [];
    const alerts = alertsTo(hook.url, results);
    alerts.send({ event: 'fill', text: 'fill: mm buy 0.001 @ 65000' });
    alerts.send({ event: 'kill_switch', text: 'kill switch tripped: loss limit', details: { scope: 'account' } });
    await until(() => results.length === 1);
    expect(results).toEqual([['kill_switch', 'sent']]);
    expect(hook.bodies).toEqual([
      {
        text: '[perpbot 0xabc…] kill switch tripped: loss limit',
        event: 'kill_switch',
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        bot: '0xabc…',
        details: { scope: 'account' },
      },
    ]);
    await alerts.close(100);
  });

  it('retries a 503 and a 429 with backoff, then delivers; a 4xx refusal is not retried', async () => {
    const hook = await receiver();
    closing.push(hook.close);
    hook.answers.push(503, 429);
    const results: [AlertEvent, AlertResult][] = [];
    const alerts = alertsTo(hook.url, results);
    alerts.send({ event: 'degraded', text: 'trading degraded' });
    await until(() => results.length === 1);
    expect(results).toEqual([['degraded', 'sent']]);
    expect(hook.bodies).toHaveLength(3);
    hook.answers.push(404);
    alerts.send({ event: 'recovered', text: 'trading resumed' });
    await until(() => results.length === 2);
    expect(results[1]).toEqual(['recovered', 'failed']);
    expect(hook.bodies).toHaveLength(4);
    await alerts.close(100);
  });

  it('a receiver that is down: send never blocks, each alert is tried `attempts` times, then the next one goes; the URL is never logged', async () => {
    const url = await downUrl();
    const results: [AlertEvent, AlertResult][] = [];
    const alerts = alertsTo(url, results);
    for (let i = 0; i < 3; i++) alerts.send({ event: 'unknown_outcome', text: `outcome unknown #${i}` });
    // send only queues: nothing has been tried, let alone given up, when it returns.
    expect(results).toEqual([]);
    await until(() => results.length === 3);
    expect(results).toEqual([
      ['unknown_outcome', 'failed'],
      ['unknown_outcome', 'failed'],
      ['unknown_outcome', 'failed'],
    ]);
    // Two retries per alert, then one give-up line each.
    expect(warnings.filter((w) => w.msg === 'alert webhook failed; retrying')).toHaveLength(6);
    expect(warnings.filter((w) => w.msg === 'alert webhook failed; alert dropped')).toHaveLength(3);
    expect(JSON.stringify(warnings)).toContain('ECONNREFUSED');
    expect(JSON.stringify(warnings)).not.toContain(url);
    await alerts.close(100);
  });

  it('drops the oldest alerts beyond the queue bound while the receiver hangs, and gives up on shutdown', async () => {
    const hook = await receiver();
    closing.push(hook.close);
    hook.hang = true;
    const results: [AlertEvent, AlertResult][] = [];
    const alerts = alertsTo(hook.url, results, { maxQueued: 2, timeoutMs: 5_000 });
    for (let i = 0; i < 5; i++) alerts.send({ event: 'feed_lost', text: `lost #${i}` });
    // One in flight, two queued, two dropped.
    expect(results).toEqual([
      ['feed_lost', 'dropped'],
      ['feed_lost', 'dropped'],
    ]);
    const closed = performance.now();
    await alerts.close(50);
    expect(performance.now() - closed).toBeLessThan(1_000);
    await until(() => results.length === 5);
    expect(results.filter(([, r]) => r === 'dropped')).toHaveLength(4);
  });

  it('does not follow a redirect: the alert is not re-sent elsewhere, and it is not retried', async () => {
    const elsewhere = await receiver();
    closing.push(elsewhere.close);
    const redirecting = createServer((_req, res) => res.writeHead(307, { location: elsewhere.url }).end());
    await new Promise<void>((r) => redirecting.listen(0, '127.0.0.1', r));
    closing.push(() => new Promise<void>((r) => redirecting.close(() => r())));
    const results: [AlertEvent, AlertResult][] = [];
    const url = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/hooks/T1/B1/redirected-secret`;
    const alerts = alertsTo(url, results);
    alerts.send({ event: 'kill_switch', text: 'kill switch tripped' });
    await until(() => results.length === 1);
    expect(results).toEqual([['kill_switch', 'failed']]);
    expect(elsewhere.bodies).toHaveLength(0);
    // Only this alert's lines: an earlier test's receiver may still be giving up in the background.
    const mine = warnings.filter((w) => (w.obj as { event?: string }).event === 'kill_switch');
    expect(mine.map((w) => w.msg)).toEqual(['alert webhook failed; alert dropped']);
    expect(JSON.stringify(mine)).toContain('redirect (HTTP 307), which is not followed');
    await alerts.close(100);
  });

  it('after a receiver stalled and a garbage collection ran, the next alert (a kill-switch trip) is still tried within its timeout and logged when it fails', async () => {
    const r = await receiver();
    r.hang = true;
    const results: [AlertEvent, AlertResult][] = [];
    const alerts = alertsTo(r.url, results, { timeoutMs: 300, attempts: 1 });
    const collect = setInterval(forceGc, 50);
    try {
      alerts.send({ event: 'degraded', text: 'degraded: the venue stalls' });
      await until(() => results.length === 1, 3_000);
      const startedAt = Date.now();
      alerts.send({ event: 'kill_switch', text: 'kill switch tripped' });
      await until(() => results.length === 2, 3_000);
      expect(Date.now() - startedAt).toBeLessThan(2_500);
      expect(results).toEqual([
        ['degraded', 'failed'],
        ['kill_switch', 'failed'],
      ]);
      expect(warnings).toContainEqual({
        obj: { event: 'kill_switch', attempts: 1, reason: 'timed out' },
        msg: 'alert webhook failed; alert dropped',
      });
    } finally {
      clearInterval(collect);
      await alerts.close(0);
      await r.close();
    }
  });

  it('redacts secrets from the text and details', async () => {
    const hook = await receiver();
    closing.push(hook.close);
    const results: [AlertEvent, AlertResult][] = [];
    const alerts = alertsTo(hook.url, results);
    const key = `0x${'ab'.repeat(32)}`;
    registerSecret(key); // as the bot does when it loads its keys
    alerts.send({
      event: 'strategy_error',
      text: `strategy failed: leaked ${key} and Bearer abc.def.ghi`,
      details: { privateKey: key, token: 'sekrit-token-value' },
    });
    await until(() => results.length === 1);
    const body = JSON.stringify(hook.bodies[0]);
    expect(body).not.toContain('ab'.repeat(32));
    expect(body).not.toContain('abc.def.ghi');
    expect(body).not.toContain('sekrit-token-value');
    expect(body).toContain('[redacted]');
    await alerts.close(100);
  });
});

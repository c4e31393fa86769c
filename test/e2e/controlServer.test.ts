import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cancel, placeLimit } from '../../src/engine/intents/intentBuilders.js';
import { controlFileFor, readControlFile } from '../../src/runtime/operations/control/controlFile.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { startFaultyRestProxy, type FaultyRestProxy } from './support/faultyRestProxy.js';
import { until } from './support/journalBot.js';
import {
  CONTROL_TOKEN,
  parsePrometheus,
  prepareServiceRoot,
  serviceBotConfig,
  startServiceBot,
  sumOf,
  type ServiceBot,
} from './support/serviceBot.js';
import { fundedAccount, type SimAccount } from './support/simAccount.js';

const PROBE = `  - name: probe
    module: strategies/serviceProbe.ts
    markets: [1]
    params: { size: "0.0005", taker_size: "0.001", bids: ["60000", "61000"] }`;

interface Answer {
  readonly status: number;
  readonly text: string;
  readonly headers: Headers;
}

describe('the control server of a bot on the simulator (--control-port 0)', () => {
  let sim: RunningSim;
  let proxy: FaultyRestProxy;
  let dir: string;
  let bot: ServiceBot | undefined;
  let who: SimAccount;
  /** Every answer the control server gave in the test: none may carry a secret. */
  const answers: string[] = [];

  const call = async (path: string, init: RequestInit = {}): Promise<Answer> => {
    const response = await fetch(`${bot?.url ?? ''}${path}`, init);
    const text = await response.text();
    answers.push(text, JSON.stringify([...response.headers]));
    return { status: response.status, text, headers: response.headers };
  };
  const json = async (path: string): Promise<{ status: number; body: Record<string, unknown> }> => {
    const answer = await call(path);
    return { status: answer.status, body: JSON.parse(answer.text) as Record<string, unknown> };
  };
  const killSwitch = (body: unknown, token?: string): Promise<Answer> =>
    call('/api/kill-switch', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      },
      body: JSON.stringify(body),
    });

  beforeEach(async () => {
    sim = await startSim({ port: 0, blockMs: 50, registrationLagMs: 0 });
    proxy = await startFaultyRestProxy(sim.restUrl);
    dir = mkdtempSync(join(tmpdir(), 'perpbot-control-'));
    prepareServiceRoot(dir);
    who = await fundedAccount(sim);
  });
  afterEach(async () => {
    await bot?.stop();
    bot = undefined;
    await proxy.close();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers health, readiness, metrics equal to the journal, status, and a token-guarded kill switch; never a secret', async () => {
    bot = await startServiceBot(sim, who, dir, serviceBotConfig(dir, PROBE), { restUrl: proxy.url });
    const { engine } = bot;
    expect(
      bot.lines.some((l) => l.includes('"msg":"control server listening"') && l.includes(`"url":"${bot?.url ?? ''}"`)),
    ).toBe(true);
    expect(bot.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // Recorded beside the journal, for `perpbot status`.
    expect(readControlFile(controlFileFor(bot.journal))).toMatchObject({
      url: bot.url,
      pid: process.pid,
      account: who.account,
    });

    expect((await json('/health')).status).toBe(200);
    await until(async () => (await call('/ready')).status === 200);
    await until(
      () =>
        engine.tracker.openOrders({ strategy: 'probe' }).filter((o) => o.state === 'open').length === 2 &&
        engine.tracker.position(1) !== undefined,
    );
    await until(async () => ((await json('/api/status')).body['recentFills'] as unknown[]).length > 0);
    // Tick-to-trade is timed from the market's last oracle or book message: the probe's bids may go
    // on the start-up mark before any frame came, so one more bid answers a frame seen by the bot.
    const startMark = engine.market(1)?.mark_price;
    await until(() => engine.market(1)?.mark_price !== startMark);
    const timed = await engine.execute(
      placeLimit({
        intentId: 'timed-bid',
        strategy: 'probe',
        marketId: 1,
        side: 'buy',
        size: '0.0005',
        price: '30000',
        postOnly: true,
      }),
    );
    expect(timed.type).toBe('accepted');

    // /metrics parses as Prometheus text; its order and fill counters equal the journal's.
    const metrics = await call('/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const samples = parsePrometheus(metrics.text);
    const db = new Database(bot.journal, { readonly: true });
    try {
      const journaled = db
        .prepare("SELECT kind, COUNT(*) AS n FROM intents WHERE outcome_type = 'accepted' GROUP BY kind")
        .all() as { kind: string; n: number }[];
      expect(journaled.length).toBeGreaterThan(0);
      for (const { kind, n } of journaled)
        expect(sumOf(samples, 'perpbot_intents_total', { kind, outcome: 'accepted' })).toBe(n);
      expect(sumOf(samples, 'perpbot_intents_total', { outcome: 'accepted' })).toBe(
        journaled.reduce((s, r) => s + r.n, 0),
      );
      const fills = (
        db.prepare('SELECT COUNT(*) AS n FROM fills WHERE lower(account) = lower(?)').get(who.account) as { n: number }
      ).n;
      expect(fills).toBeGreaterThan(0);
      expect(sumOf(samples, 'perpbot_fills_total')).toBe(fills);
    } finally {
      db.close();
    }
    for (const name of [
      'perpbot_process_cpu_seconds_total',
      'perpbot_rest_request_duration_seconds_count',
      'perpbot_tick_to_trade_seconds_count',
      'perpbot_feed_age_seconds',
      'perpbot_balance_usdc',
      'perpbot_position_size',
      'perpbot_pnl_usdc',
      'perpbot_ready',
    ]) {
      expect(
        samples.some((s) => s.name === name),
        name,
      ).toBe(true);
    }
    expect(sumOf(samples, 'perpbot_position_size', { market: '1' })).toBeCloseTo(0.001, 9);
    expect(sumOf(samples, 'perpbot_ready')).toBe(1);
    expect(
      (
        await engine.execute(
          cancel({ intentId: 'timed-bid-cancel', strategy: 'probe', marketId: 1, target: { intentId: 'timed-bid' } }),
        )
      ).type,
    ).toBe('accepted');

    // The status: positions with mark and unrealised PnL, open orders, fills, strategies, streams.
    const status = (await json('/api/status')).body as {
      positions: { marketId: number; signedSize: string; markPrice: string | null; unrealisedPnl: string | null }[];
      openOrders: { strategy: string; price: string }[];
      strategies: { name: string; status: string }[];
      streams: { channel: string }[];
      ready: { ready: boolean };
      account: string;
    };
    expect(status.account).toBe(who.account);
    expect(status.positions).toEqual([expect.objectContaining({ marketId: 1, signedSize: '0.001' })]);
    expect(status.positions[0]?.markPrice).not.toBeNull();
    expect(status.positions[0]?.unrealisedPnl).toMatch(/^-?\d+(\.\d+)?$/);
    expect(status.openOrders.map((o) => o.price).sort()).toEqual(['60000', '61000']);
    expect(status.strategies).toEqual([expect.objectContaining({ name: 'probe', status: expect.any(String) })]);
    expect(status.streams.map((s) => s.channel)).toEqual(expect.arrayContaining(['mark', 'orders', 'fills']));

    // The dashboard and its chart library are served by the bot itself.
    expect((await call('/')).text).toContain('<script src="/assets/uPlot.iife.min.js">');
    const uplot = await call('/assets/uPlot.iife.min.js');
    expect(uplot.status).toBe(200);
    expect(uplot.text).toContain('uPlot');
    expect((await call('/nope')).status).toBe(404);
    const events = await fetch(`${bot.url}/api/events`);
    const reader = events.body!.getReader();
    let streamed = '';
    while (!streamed.includes('event: status')) streamed += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    answers.push(streamed);
    expect(events.headers.get('content-type')).toMatch(/^text\/event-stream/);

    // The kill switch: refused without the token, with a wrong one, and on a bad body.
    const before = engine.killSwitch.tripped;
    expect(before).toBe(false);
    const refused = await killSwitch({ action: 'trip' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="perpbot"');
    expect((await killSwitch({ action: 'trip' }, 'not-the-token-0123456789')).status).toBe(401);
    expect((await killSwitch({ action: 'explode' }, CONTROL_TOKEN)).status).toBe(400);
    expect((await call('/api/kill-switch')).status).toBe(405);
    expect(engine.killSwitch.tripped).toBe(false);
    // With it, the switch trips: orders are cancelled, /ready says why.
    const tripped = await killSwitch({ action: 'trip', reason: 'operator test' }, CONTROL_TOKEN);
    expect(tripped.status).toBe(200);
    expect(JSON.parse(tripped.text)).toMatchObject({
      action: 'trip',
      killSwitch: { tripped: true, reason: 'kill switch tripped through the control server: operator test' },
    });
    expect(engine.killSwitch.tripped).toBe(true);
    const notReady = await json('/ready');
    expect(notReady.status).toBe(503);
    expect(notReady.body['reasons']).toEqual([
      'kill switch tripped: kill switch tripped through the control server: operator test',
    ]);
    await until(() => engine.tracker.openOrders({ strategy: 'probe' }).length === 0);
    expect(
      sumOf(parsePrometheus((await call('/metrics')).text), 'perpbot_kill_switch_tripped', { scope: 'account' }),
    ).toBe(1);
    expect((await killSwitch({ action: 'reset' }, CONTROL_TOKEN)).status).toBe(200);
    await until(async () => (await call('/ready')).status === 200);

    // Degraded: the account's feed drops and cannot re-authenticate (its nonce read fails).
    proxy.fail('/v1/auth/nonce');
    expect(sim.controls.dropAccountWebSockets(who.account)).toBeGreaterThan(0);
    await until(() => engine.conditions.state.mode === 'degraded');
    const degraded = await json('/ready');
    expect(degraded.status).toBe(503);
    expect((degraded.body['reasons'] as string[]).some((r) => r.startsWith('degraded: private feeds down'))).toBe(true);
    expect(sumOf(parsePrometheus((await call('/metrics')).text), 'perpbot_trading_mode', { mode: 'degraded' })).toBe(1);
    proxy.restore();
    await until(async () => (await call('/ready')).status === 200, 20_000);

    // No key, signature or token in any answer.
    const everything = answers.join('\n');
    for (const secret of [who.signerKey, who.accountKey, CONTROL_TOKEN]) {
      expect(everything).not.toContain(secret);
      expect(everything.toLowerCase()).not.toContain(secret.replace(/^0x/, '').toLowerCase());
    }
    expect(everything).not.toMatch(/(?:0x)?[0-9a-fA-F]{130}/);
    expect(everything).not.toMatch(/eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\./);

    await bot.stop();
    bot = undefined;
    // The record goes with the bot.
    expect(readControlFile(controlFileFor(join(dir, 'journal.sqlite')))).toBeUndefined();
  }, 60_000);

  it('refuses the kill switch when no token is configured', async () => {
    bot = await startServiceBot(sim, who, dir, serviceBotConfig(dir, PROBE), { env: {} });
    const answer = await killSwitch({ action: 'trip' }, CONTROL_TOKEN);
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.text)).toMatchObject({
      error: 'the kill-switch endpoint is disabled: no control token is configured',
      hints: ['set environment variable PERPBOT_CONTROL_TOKEN and restart the bot'],
    });
    expect(bot.engine.killSwitch.tripped).toBe(false);
  }, 30_000);
});

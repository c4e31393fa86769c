import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
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
import { fundedAccount } from './support/simAccount.js';

// Two strategies on one market, both cycling a resting bid (place, cancel, place...). Only
// `stale` depends on the mark within 400 ms; `steady` declares the probe's default (a minute).
// The bot's sim.block_ms (2 s) puts the WebSocket's own silence watchdog at 10 s, far past the
// stall, so the connection stays up and only the freshness budget reacts.
const STRATEGIES = `  - name: stale
    module: strategies/serviceProbe.ts
    markets: [1]
    params: { size: "0.0005", cycle_bid: "59000", every_ms: 80 }
    freshness: { mark: 400 }
  - name: steady
    module: strategies/serviceProbe.ts
    markets: [1]
    params: { size: "0.0005", cycle_bid: "58000", every_ms: 80 }`;

interface StrategyView {
  readonly name: string;
  readonly feed: {
    readonly stale: boolean;
    readonly staleFeeds: readonly { channel: string; marketId: number; budgetMs: number }[];
  };
}

describe('stream freshness budgets (simulator stallStreams)', () => {
  let sim: RunningSim;
  let dir: string;
  let bot: ServiceBot | undefined;
  let hook: Server;
  const posted: { event: string; text: string }[] = [];

  beforeEach(async () => {
    sim = await startSim({ port: 0, blockMs: 50, registrationLagMs: 0 });
    dir = mkdtempSync(join(tmpdir(), 'perpbot-freshness-'));
    prepareServiceRoot(dir);
    hook = createServer((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString()));
      req.on('end', () => {
        posted.push(JSON.parse(text) as { event: string; text: string });
        res.end();
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
  });
  afterEach(async () => {
    sim.controls.stallStreams(false);
    await bot?.stop();
    await new Promise<void>((r) => hook.close(() => r()));
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('puts only the depending strategy into reduce-only (FEED_STALE), alerts and counts it, and lifts it when the stream is fresh again', async () => {
    const who = await fundedAccount(sim);
    const hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/alerts`;
    const extra =
      'sim: { block_ms: 2000 }\nalerts: { webhook_url_env: TEST_WEBHOOK, events: [feed_stale, degraded] }\n';
    bot = await startServiceBot(sim, who, dir, serviceBotConfig(dir, STRATEGIES, extra), {
      env: { PERPBOT_CONTROL_TOKEN: CONTROL_TOKEN, TEST_WEBHOOK: hookUrl },
    });
    const { url, engine } = bot;
    const metrics = async () => parsePrometheus(await (await fetch(`${url}/metrics`)).text());
    const strategies = async () =>
      ((await (await fetch(`${url}/api/status`)).json()) as { strategies: StrategyView[] }).strategies;
    const accepted = async (strategy: string) =>
      sumOf(await metrics(), 'perpbot_intents_total', { strategy, kind: 'placeLimit', outcome: 'accepted' });

    await until(async () => (await accepted('stale')) >= 2 && (await accepted('steady')) >= 2, 10_000);
    await until(async () => (await strategies()).every((s) => !s.feed.stale));

    sim.controls.stallStreams(true);
    await until(async () => (await strategies()).find((s) => s.name === 'stale')?.feed.stale === true, 5_000);
    const steadyBefore = await accepted('steady');
    await until(
      async () => sumOf(await metrics(), 'perpbot_refusals_total', { strategy: 'stale', rule: 'FEED_STALE' }) >= 2,
      5_000,
    );
    // Meanwhile the other strategy goes on opening orders, and the engine is not degraded.
    await until(async () => (await accepted('steady')) >= steadyBefore + 2, 5_000);
    const during = await metrics();
    const view = await strategies();
    expect(view.find((s) => s.name === 'stale')?.feed.staleFeeds).toEqual([
      expect.objectContaining({ channel: 'mark', marketId: 1, budgetMs: 400 }),
    ]);
    expect(view.find((s) => s.name === 'steady')?.feed.stale).toBe(false);
    expect(engine.conditions.state.mode).toBe('trading');
    expect(sumOf(during, 'perpbot_refusals_total', { strategy: 'steady' })).toBe(0);
    // Only opening intents are refused: its cancels still go.
    expect(sumOf(during, 'perpbot_intents_total', { strategy: 'stale', kind: 'cancel', outcome: 'refused' })).toBe(0);
    expect(sumOf(during, 'perpbot_strategy_reduce_only', { strategy: 'stale' })).toBe(1);
    expect(sumOf(during, 'perpbot_strategy_reduce_only', { strategy: 'steady' })).toBe(0);
    // Counted when the budgets' periodic check publishes the change, which the live refusals may precede.
    await until(
      async () =>
        sumOf(await metrics(), 'perpbot_feed_stale_total', { strategy: 'stale', channel: 'mark', market: '1' }) >= 1,
      5_000,
    );
    expect(sumOf(await metrics(), 'perpbot_feed_stale_total', { strategy: 'steady' })).toBe(0);
    const ready = (await (await fetch(`${url}/ready`)).json()) as { ready: boolean; warnings: string[] };
    expect(ready.ready).toBe(true);
    expect(ready.warnings[0]).toMatch(
      /^strategy stale is reduce-only \(FEED_STALE\): mark of market 1 is \d+ ms old \(budget 400 ms\)$/,
    );
    await until(() => posted.some((p) => p.event === 'feed_stale'));
    expect(posted.find((p) => p.event === 'feed_stale')?.text).toMatch(
      /^\[perpbot 0x[0-9a-fA-F]{8}…\] strategy stale is reduce-only \(FEED_STALE\): mark of market 1 is \d+ ms old \(budget 400 ms\)$/,
    );

    // The stream speaks again: the strategy opens orders again by itself.
    sim.controls.stallStreams(false);
    await until(async () => (await strategies()).find((s) => s.name === 'stale')?.feed.stale === false, 5_000);
    const staleAfter = await accepted('stale');
    await until(async () => (await accepted('stale')) >= staleAfter + 2, 5_000);
    await until(() =>
      posted.some((p) => p.text.endsWith('strategy stale: its streams are fresh again; opening intents allowed')),
    );
    expect(posted.filter((p) => p.event === 'degraded')).toEqual([]);
    expect(
      bot.lines.some(
        (l) =>
          l.includes('"strategy":"stale"') &&
          l.includes('strategy reduce-only: a stream it depends on is late (FEED_STALE: mark:1)'),
      ),
    ).toBe(true);
  }, 60_000);
});

import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WireDeparture } from '../../src/sim/index.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { until } from './support/journalBot.js';
import {
  parsePrometheus,
  prepareServiceRoot,
  serviceBotConfig,
  startServiceBot,
  sumOf,
  type ServiceBot,
} from './support/serviceBot.js';
import { fundedAccount } from './support/simAccount.js';

// A strategy that depends on the book within 1.5 s and keeps trying to open a bid.
const STRATEGIES = `  - name: booked
    module: strategies/serviceProbe.ts
    markets: [1]
    params: { size: "0.0005", cycle_bid: "59000", every_ms: 100 }
    freshness: { book: 1500 }`;

interface StrategyView {
  readonly name: string;
  readonly status: string;
  readonly feed: { readonly stale: boolean; readonly staleFeeds: readonly { channel: string; marketId: number }[] };
}

/**
 * Wire drift in a running bot: the simulator sends the order book in a shape the decoders refuse
 * (wei levels, `wireDepartures: ['orderbook-wei']`). The bot keeps running, counts the refused
 * frames, saves a redacted sample under the journal directory, and the strategy that depends on
 * the book turns reduce-only on its stale feed instead of trading on a book it cannot read.
 */
describe('a venue whose order book departs from the wire the bot reads', () => {
  let sim: RunningSim;
  let dir: string;
  let bot: ServiceBot | undefined;

  beforeEach(async () => {
    const wireDepartures: readonly WireDeparture[] = ['orderbook-wei'];
    sim = await startSim({ port: 0, blockMs: 50, registrationLagMs: 0, wireDepartures });
    dir = mkdtempSync(join(tmpdir(), 'perpbot-drift-'));
    prepareServiceRoot(dir);
  });
  afterEach(async () => {
    await bot?.stop();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps running, counts and samples the refused frames, and makes the strategy reduce-only on the stale book', async () => {
    const who = await fundedAccount(sim);
    bot = await startServiceBot(sim, who, dir, serviceBotConfig(dir, STRATEGIES));
    const { url } = bot;
    const metrics = async () => parsePrometheus(await (await fetch(`${url}/metrics`)).text());
    const strategies = async () =>
      ((await (await fetch(`${url}/api/status`)).json()) as { strategies: StrategyView[] }).strategies;

    await until(
      async () => sumOf(await metrics(), 'perpbot_wire_decode_failures_total', { source: 'ws:orderbook' }) >= 1,
      10_000,
    );
    await until(async () => (await strategies())[0]?.feed.stale === true, 10_000);
    // Waiting for a first book it cannot read, the strategy opens nothing: reduce-only on the stale feed.
    await until(
      async () => sumOf(await metrics(), 'perpbot_strategy_reduce_only', { strategy: 'booked' }) === 1,
      10_000,
    );
    const [view] = await strategies();
    // It waits for a first book it can read (readiness): nothing crashed, nothing opened.
    expect(view?.status, JSON.stringify(view)).toBe('waiting');
    expect(view?.feed.staleFeeds).toEqual([expect.objectContaining({ channel: 'book', marketId: 1 })]);
    expect(sumOf(await metrics(), 'perpbot_refusals_total', { strategy: 'booked', rule: 'MAX_OPEN_ORDERS' })).toBe(0);

    // One redacted sample of the shape, beside the journal.
    const samplesDir = join(dir, 'wire-samples');
    await until(() => readdirSync(samplesDir, { withFileTypes: true }).some((e) => e.name.includes('ws-orderbook')));
    const file = readdirSync(samplesDir).find((name) => name.includes('ws-orderbook')) ?? '';
    const sample = JSON.parse(readFileSync(join(samplesDir, file), 'utf8')) as { source: string; field: string };
    expect(sample.source).toBe('ws:orderbook');
    expect(sample.field).toMatch(/^data\.(bids|asks)\.\d+\.(price|quantity)$/);
    expect(readFileSync(join(samplesDir, file), 'utf8')).not.toContain(who.signerKey.slice(2));

    // Logged once per shape (bids or asks, price or quantity first), with the field; not once per frame.
    const logged = bot.lines.filter((l) => l.includes('cannot decode') && l.includes('"source":"ws:orderbook"'));
    expect(logged.length).toBeGreaterThanOrEqual(1);
    expect(logged.length).toBeLessThanOrEqual(4);
    expect(logged.some((l) => l.includes(`"field":"${sample.field}"`))).toBe(true);
    expect(sumOf(await metrics(), 'perpbot_wire_decode_failures_total', { source: 'ws:orderbook' })).toBeGreaterThan(
      logged.length,
    );
    // Still alive: the control server answers and the engine is not degraded by a market-data departure.
    expect((await fetch(`${url}/health`)).status).toBe(200);
    expect(bot.engine.conditions.state.mode).toBe('trading');
  }, 60_000);
});

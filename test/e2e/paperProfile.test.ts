import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { loggingProxy, type LoggingProxy } from './support/loggingProxy.js';
import { REPO_ROOT, startPerpbotIn, type RunningPerpbot } from './support/spawnPerpbot.js';

/**
 * `profile: paper` as a user runs it: `perpbot start` spawned, pointed at a simulator standing in
 * for the real venue (its synthetic makers quote, its taker trades) behind a proxy that logs every
 * request. The bot trades the bundled market maker on its local shadow; every fill it gets must be
 * one the venue's own trades allowed, and the venue must never see a signed request.
 */
interface VenueTrade {
  readonly price: number;
  /** When the test heard of it (wall ms, the clock the bot's log lines carry). */
  readonly at: number;
}
interface LoggedFill {
  /** 0 buy, 1 sell (the protocol's numbers). */
  readonly side: number;
  readonly price: string;
  readonly liquidity: 'MAKER' | 'TAKER';
  /** The log line's time (wall ms). */
  readonly time: number;
}

let venue: RunningSim;
let proxy: LoggingProxy;
let dir = '';
let bot: RunningPerpbot | undefined;
const venueTrades: VenueTrade[] = [];
let tradesFeed: WebSocket | undefined;

function paperConfig(): string {
  return [
    'venue:',
    '  profile: paper',
    `  rest_url: ${proxy.restUrl}`,
    `  ws_url: ${proxy.wsUrl}`,
    '  startup_deadline_ms: 20000',
    'risk:',
    '  max_order_notional: "1000"',
    '  max_position_per_market: "5000"',
    '  max_open_orders: 20',
    '  max_actions_per_second: 10',
    '  kill_switch: { max_loss: "500" }',
    'strategies:',
    '  - name: paper-mm',
    '    module: strategies/marketMaker.ts',
    '    markets: [1]',
    // Quotes inside the venue's spread, so the venue's taker trades through them now and then.
    '    params: { size: "0.001", spread_bps: 1, requote_bps: 1, max_inventory: "0.01" }',
    `journal: { path: ${JSON.stringify(join(dir, 'journal.sqlite'))} }`,
    'sim: { block_ms: 100 }',
    'logging: { level: info, pretty: false }',
    '',
  ].join('\n');
}

function fillsLogged(output: string): LoggedFill[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { msg?: string; time?: number; fill?: Omit<LoggedFill, 'time'> })
    .flatMap((line) =>
      line.msg === 'fill' && line.fill !== undefined ? [{ ...line.fill, time: line.time ?? 0 }] : [],
    );
}

async function until(check: () => boolean, ms: number, what: string, running: RunningPerpbot): Promise<void> {
  const end = Date.now() + ms;
  let exited = false;
  void running.exited.then(() => (exited = true));
  while (!check()) {
    if (exited) throw new Error(`the bot exited before ${what}`);
    if (Date.now() > end) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  venue = await startSim({ port: 0, blockMs: 100, registrationLagMs: 0 });
  proxy = await loggingProxy(venue.port);
  dir = await mkdtemp(join(tmpdir(), 'perpbot-paper-'));
  // What the venue itself printed, read straight from it (not through the proxy).
  tradesFeed = new WebSocket(venue.wsUrl);
  tradesFeed.on('open', () =>
    tradesFeed?.send(JSON.stringify({ method: 'subscribe', params: { channel: 'trades', market_ids: [1] } })),
  );
  tradesFeed.on('message', (data: Buffer) => {
    const frame = JSON.parse(data.toString()) as {
      channel?: string;
      data?: { price?: string } | { price?: string }[];
    };
    if (frame.channel !== 'trades') return;
    // One trade per frame as the simulator sends it; an array is taken too.
    for (const t of [frame.data ?? []].flat())
      if (t.price !== undefined) venueTrades.push({ price: Number(t.price), at: Date.now() });
  });
  await writeFile(join(dir, 'paper.yaml'), paperConfig());
}, 30_000);

afterAll(async () => {
  bot?.child.kill('SIGKILL');
  await bot?.exited;
  tradesFeed?.close();
  await proxy.close();
  await venue.close();
  await rm(dir, { recursive: true, force: true });
});

describe('perpbot start with profile: paper (spawned, a simulator standing in for the venue)', () => {
  it('fills only where the venue traded through its quotes, sends the venue nothing signed, and stops cleanly', async () => {
    // From the repository, as a user of a checkout runs it (the bundled strategy is relative to it).
    bot = startPerpbotIn(['start', '--config', join(dir, 'paper.yaml')], REPO_ROOT, {});
    const running = bot;
    await until(() => fillsLogged(running.output()).length >= 2, 90_000, 'two paper fills', running).catch(
      (error: unknown) => {
        throw new Error(`${String(error)}; the bot said:\n${running.output().slice(-4000)}`);
      },
    );
    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);

    const output = running.output();
    expect(output).toContain('"msg":"paper venue started"');
    const fills = fillsLogged(output);
    for (const fill of fills) {
      // A resting quote fills at its own price, and only on a venue trade at or through it, just before.
      expect(fill.liquidity).toBe('MAKER');
      const price = Number(fill.price);
      const allowing = venueTrades.filter(
        (t) =>
          t.at >= fill.time - 5_000 &&
          t.at <= fill.time + 1_000 &&
          (fill.side === 0 ? t.price <= price : t.price >= price),
      );
      expect(allowing.length, `fill ${JSON.stringify(fill)}: no venue trade at or through its price`).toBeGreaterThan(
        0,
      );
    }
    // The venue saw public reads and one public feed, nothing else: no order, no login, no signature.
    expect(proxy.requests.length).toBeGreaterThan(0);
    for (const request of proxy.requests) {
      expect(request.method).toBe('GET');
      expect(request.headers).not.toContain('authorization');
      if (!request.upgrade) expect(request.path).toMatch(/^\/v1\/markets/);
    }
  }, 150_000);
});

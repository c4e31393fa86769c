import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BotStatus } from '../../src/runtime/operations/control/botStatus.js';
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
import { launchChromium } from './support/chromium.js';

/** Debian's chromium package (.ci/run installs it when missing). */

/** A strategy that keeps opening (a bid placed, cancelled, placed...) and logs the trading state it sees. */
const PROBE = `  - name: probe
    module: strategies/serviceProbe.ts
    markets: [1]
    params: { size: "0.0005", cycle_bid: "60000", every_ms: 50, report_trading_state: true }`;

interface Seen {
  readonly mode: string;
  readonly strategyStatus: string | undefined;
  readonly strategySees: string | undefined;
  readonly metricHalted: number;
  readonly metricStrategyHalted: number;
  readonly ready: number;
  readonly page: string;
}

describe('a tripped kill switch is a trading state everyone sees: halted', () => {
  let sim: RunningSim;
  let dir: string;
  let bot: ServiceBot | undefined;
  let browser: Browser | undefined;

  beforeEach(async () => {
    sim = await startSim({ port: 0, blockMs: 50, registrationLagMs: 0 });
    dir = mkdtempSync(join(tmpdir(), 'perpbot-halted-'));
    prepareServiceRoot(dir);
  });
  afterEach(async () => {
    await browser?.close();
    await bot?.stop();
    bot = undefined;
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function openDashboard(url: string): Promise<Page> {
    browser = await launchChromium();
    const context = await browser.newContext();
    await context.route('**/*', (route) => (route.request().url().startsWith(url) ? route.continue() : route.abort()));
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForSelector('body[data-connected="true"]');
    return page;
  }

  it('trip over HTTP: /api/status, the strategy, ctx.tradingState(), /ready, metrics and the dashboard say halted within a second; the refusals are logged once; reset restores trading', async () => {
    const who = await fundedAccount(sim);
    bot = await startServiceBot(sim, who, dir, serviceBotConfig(dir, PROBE));
    const { url, lines } = bot;
    const page = await openDashboard(url);
    // Each poll reads only the log lines since the last: parsing the whole log at every poll made
    // the poll itself slow under load, and its cost was counted in the second the views are given.
    let linesRead = 0;
    let lastSeenMode: string | undefined;
    const strategySees = (): string | undefined => {
      for (; linesRead < lines.length; linesRead++) {
        const line = JSON.parse(lines[linesRead]!) as { msg?: string; mode?: string };
        if (line.msg === 'strategy trading state') lastSeenMode = line.mode;
      }
      return lastSeenMode;
    };
    // Each view is watched on its own: a poll of all of them together waited for the slowest (the
    // page, under the suite's load), and each wait counted in the second the views are given.
    const statusNow = () => fetch(`${url}/api/status`).then((r) => r.json() as Promise<BotStatus>);
    const metricsNow = async () => parsePrometheus(await (await fetch(`${url}/metrics`)).text());
    const views: { readonly [K in keyof Seen]: () => Promise<Seen[K]> } = {
      mode: async () => (await statusNow()).mode,
      strategyStatus: async () => (await statusNow()).strategies.find((s) => s.name === 'probe')?.status,
      strategySees: () => Promise.resolve(strategySees()),
      metricHalted: async () => sumOf(await metricsNow(), 'perpbot_trading_mode', { mode: 'halted' }),
      metricStrategyHalted: async () => sumOf(await metricsNow(), 'perpbot_strategy_halted', { strategy: 'probe' }),
      ready: async () => (await fetch(`${url}/ready`)).status,
      page: async () => (await page.locator('[data-testid="mode"]').textContent()) ?? '',
    };
    const names = Object.keys(views) as (keyof Seen)[];
    const seen = async (): Promise<Seen> => {
      const values = await Promise.all(names.map((name) => views[name]()));
      return Object.fromEntries(names.map((name, i) => [name, values[i]])) as unknown as Seen;
    };
    /** Per view, milliseconds from `since` to the end of its first read that shows `want`. */
    const whenEachShows = async (want: Seen, since: number, ms: number): Promise<Record<string, number>> => {
      const watch = async (name: keyof Seen): Promise<[string, number]> => {
        for (;;) {
          const shows = (await views[name]()) === want[name];
          const at = Date.now() - since;
          if (shows || at > ms) return [name, shows ? at : Infinity];
          await new Promise((r) => setTimeout(r, 10));
        }
      };
      return Object.fromEntries(await Promise.all(names.map(watch)));
    };
    const trading: Seen = {
      mode: 'trading',
      strategyStatus: 'running',
      strategySees: 'trading',
      metricHalted: 0,
      metricStrategyHalted: 0,
      ready: 200,
      page: 'trading',
    };
    await until(async () => JSON.stringify(await seen()) === JSON.stringify(trading), 10_000);

    const post = (action: string) =>
      fetch(`${url}/api/kill-switch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${CONTROL_TOKEN}` },
        body: JSON.stringify({ action, reason: 'operator drill' }),
      });
    const refusedBefore = lines.length;
    const tripped = await post('trip');
    expect(tripped.status).toBe(200);
    const halted: Seen = {
      mode: 'halted',
      strategyStatus: 'halted',
      strategySees: 'halted',
      metricHalted: 1,
      metricStrategyHalted: 1,
      ready: 503,
      page: 'halted',
    };
    const shown = await whenEachShows(halted, Date.now(), 5_000);
    const late = Object.entries(shown).filter(([, ms]) => ms >= 1_000);
    expect(
      late,
      `views not halted within 1 s of the trip (ms): ${JSON.stringify(shown, (_, v: unknown) => (v === Infinity ? 'never' : v))}`,
    ).toEqual([]);
    const readiness = (await (await fetch(`${url}/ready`)).json()) as { reasons: string[] };
    expect(readiness.reasons.join('; ')).toContain('operator drill');

    // The strategy keeps opening every 50 ms: each intent is refused, only the first is logged.
    const refusedIntents = async () =>
      sumOf(parsePrometheus(await (await fetch(`${url}/metrics`)).text()), 'perpbot_refusals_total', {
        strategy: 'probe',
        rule: 'KILL_SWITCH',
      });
    await until(async () => (await refusedIntents()) >= 10, 5_000);
    const warnings = lines
      .slice(refusedBefore)
      .map((l) => JSON.parse(l) as { msg?: string; level?: number; strategy?: string })
      .filter((l) => l.level === 40 && l.strategy === 'probe');
    expect(warnings.map((w) => w.msg)).toEqual([
      'intent refused: trading is halted; further refusals of this strategy while halted are counted, not logged',
    ]);

    expect((await post('reset')).status).toBe(200);
    // The second is the trip's promise; trading again is asked for within five, as the reads of one
    // look (three HTTP reads and the page) took more than a second on a loaded CI machine.
    let last: Seen | undefined;
    await until(async () => JSON.stringify((last = await seen())) === JSON.stringify(trading), 5_000).catch(
      (e: unknown) => {
        throw new Error(`not trading again within 5 s of the reset: ${JSON.stringify(last)}`, { cause: e });
      },
    );
    const unlogged = lines
      .map((l) => JSON.parse(l) as { msg?: string; refusedUnlogged?: number })
      .find((l) => l.msg === 'intents refused while halted, not logged');
    expect(unlogged?.refusedUnlogged).toBeGreaterThanOrEqual(9);
    // Trading again: the strategy's bid rests on the venue.
    await until(() => sim.context.exchange.openOrders(who.account, 1).length === 1, 5_000);
  });
});

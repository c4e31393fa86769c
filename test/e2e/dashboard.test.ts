import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { shortId } from '../../src/core/shortId.js';
import type { BotStatus } from '../../src/runtime/operations/control/botStatus.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { until } from './support/journalBot.js';
import { prepareServiceRoot, serviceBotConfig, startServiceBot, type ServiceBot } from './support/serviceBot.js';
import { fundedAccount } from './support/simAccount.js';
import { launchChromium } from './support/chromium.js';

/** Debian's chromium package (.ci/run installs it when missing). */
/** Kept by CI (gitignored); the screenshot of each run lands here. */
const ARTIFACTS = resolve(import.meta.dirname, '..', '..', 'test-artifacts');

const PROBE = `  - name: probe
    module: strategies/serviceProbe.ts
    markets: [1]
    params: { size: "0.0005", taker_size: "0.001", bids: ["60000", "61000"] }`;

/** What the page shows, read from the DOM by the test ids the dashboard puts on every value. */
interface PageView {
  readonly seq: number;
  readonly cards: Record<string, string>;
  readonly positions: Record<string, Record<string, string>>;
  readonly orders: Record<string, Record<string, string>>;
  readonly strategies: Record<string, Record<string, string>>;
  readonly fills: string[];
  /** Each order row's id cell: what it shows and its title (the tooltip), by intent id. */
  readonly orderIds: Record<string, { readonly text: string; readonly title: string }>;
  readonly chartPoints: number;
}

/** The same values as /api/status gives them for display, in the page's shape. */
function expectedView(status: BotStatus): Omit<PageView, 'seq' | 'chartPoints' | 'orderIds'> {
  const money = status.display;
  return {
    cards: {
      mode: status.mode,
      'kill-switch': status.killSwitch.tripped ? 'kill switch tripped' : 'kill switch armed',
      balance: money.balance ?? '–',
      'opening-balance': money.openingBalance ?? '–',
      'balance-change': money.balanceChange ?? '–',
      'other-balance-change': money.otherBalanceChange ?? '–',
      equity: money.equity ?? '–',
      'net-pnl': money.pnl?.netPnl ?? '–',
      'realised-pnl': money.pnl?.realisedPnl ?? '–',
      'unrealised-pnl': money.pnl?.unrealisedPnl ?? '–',
      fees: money.pnl?.fees ?? '–',
      account: status.account,
    },
    positions: Object.fromEntries(
      status.positions.map((p) => [
        String(p.marketId),
        {
          side: p.side,
          signedSize: p.signedSize,
          avgEntryPrice: p.display.avgEntryPrice,
          markPrice: p.display.markPrice ?? '–',
          unrealisedPnl: p.display.unrealisedPnl ?? '–',
        },
      ]),
    ),
    orders: Object.fromEntries(
      status.openOrders.map((o) => [
        o.intentId,
        {
          strategy: o.strategy,
          side: o.side,
          size: o.size,
          price: o.display.price,
          filledSize: o.filledSize,
          state: o.state,
        },
      ]),
    ),
    strategies: Object.fromEntries(
      status.strategies.map((s) => [
        s.name,
        {
          status: s.status,
          position: s.positions.map((p) => p.signedSize).join(', ') || '0',
          netPnl: s.display.pnl?.netPnl ?? '–',
          openOrders: String(s.openOrders),
          killSwitch: s.killSwitch.tripped ? 'tripped' : 'armed',
        },
      ]),
    ),
    fills: status.recentFills.slice(0, 20).map((f) => f.id),
  };
}

/**
 * Runs in the page: every value the dashboard shows, by the test ids and data attributes it puts
 * on them. Source text, because the test's own TypeScript has no DOM types.
 */
const READ_PAGE = `(() => {
  const text = (el) => (el === null ? '' : el.textContent);
  const rows = (tbody, key) =>
    Object.fromEntries(
      [...document.querySelectorAll('[data-testid="' + tbody + '"] tr[data-' + key + ']')].map((tr) => [
        tr.dataset[key],
        Object.fromEntries([...tr.querySelectorAll('td[data-field]')].map((td) => [td.dataset.field, text(td)])),
      ]),
    );
  const cards = Object.fromEntries(['mode', 'kill-switch', 'balance', 'opening-balance', 'balance-change', 'other-balance-change', 'equity', 'net-pnl', 'realised-pnl', 'unrealised-pnl', 'fees', 'account'].map((id) => [id, text(document.querySelector('[data-testid="' + id + '"]'))]));
  return {
    seq: Number(document.body.dataset.seq || '0'),
    cards,
    positions: rows('positions', 'position'),
    orders: rows('orders', 'order'),
    strategies: rows('strategies', 'strategy'),
    fills: [...document.querySelectorAll('[data-testid="fills"] tr[data-fill]')].map((tr) => tr.dataset.fill),
    orderIds: Object.fromEntries(
      [...document.querySelectorAll('[data-testid="orders"] tr[data-order]')].map((tr) => {
        const td = tr.querySelector('td[data-field="orderId"]');
        return [tr.dataset.order, { text: text(td), title: td === null ? '' : td.title }];
      }),
    ),
    chartPoints: Number(document.body.dataset.chartPoints || '0'),
  };
})()`;

describe('the live dashboard in headless Chromium', () => {
  let sim: RunningSim;
  let dir: string;
  let bot: ServiceBot | undefined;
  let browser: Browser | undefined;

  beforeEach(async () => {
    // Long blocks: the mark moves only when the test says, so page and API can be compared exactly.
    sim = await startSim({ port: 0, blockMs: 60_000, registrationLagMs: 0 });
    dir = mkdtempSync(join(tmpdir(), 'perpbot-dashboard-'));
    prepareServiceRoot(dir);
  });
  afterEach(async () => {
    await browser?.close();
    await bot?.stop();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows the bot’s live state, equal to /api/status, with the chart drawn from node_modules (no network)', async () => {
    const who = await fundedAccount(sim);
    bot = await startServiceBot(sim, who, dir, serviceBotConfig(dir, PROBE));
    const { url, engine } = bot;
    // The venue settles and publishes per block: mine them by hand while the probe trades.
    await until(() => {
      sim.controls.advanceBlocks(1);
      return (
        engine.tracker.openOrders({ strategy: 'probe' }).filter((o) => o.state === 'open').length === 2 &&
        engine.tracker.position(1) !== undefined
      );
    });
    const status = async () => (await (await fetch(`${url}/api/status`)).json()) as BotStatus;
    await until(async () => (await status()).recentFills.length > 0);

    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    // Offline but for the bot: any request elsewhere (a CDN) fails the test.
    const outside: string[] = [];
    await context.route('**/*', (route) => {
      if (route.request().url().startsWith(url)) return route.continue();
      outside.push(route.request().url());
      return route.abort();
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(url);
    await page.waitForSelector('body[data-connected="true"]');
    await page.waitForSelector('[data-testid="positions"] tr[data-position="1"]');
    const read = (): Promise<PageView> => page.evaluate<PageView>(READ_PAGE);
    const pick = (view: PageView) => ({
      cards: view.cards,
      positions: Object.fromEntries(
        Object.entries(view.positions).map(([k, v]) => [
          k,
          {
            side: v['side'],
            signedSize: v['signedSize'],
            avgEntryPrice: v['avgEntryPrice'],
            markPrice: v['markPrice'],
            unrealisedPnl: v['unrealisedPnl'],
          },
        ]),
      ),
      orders: Object.fromEntries(
        Object.entries(view.orders).map(([k, v]) => [
          k,
          {
            strategy: v['strategy'],
            side: v['side'],
            size: v['size'],
            price: v['price'],
            filledSize: v['filledSize'],
            state: v['state'],
          },
        ]),
      ),
      strategies: Object.fromEntries(
        Object.entries(view.strategies).map(([k, v]) => [
          k,
          {
            status: v['status'],
            position: v['position'],
            netPnl: v['netPnl'],
            openOrders: v['openOrders'],
            killSwitch: v['killSwitch'],
          },
        ]),
      ),
      fills: view.fills,
    });
    /**
     * The page and the API agree, both read between two pushes of the same state, while the bot
     * trades: under load a feed can drop and come back (degraded for under a second), and a page
     * read just before that and an API read just after would differ by the moment, not the view.
     */
    let agreed: { shown: Awaited<ReturnType<typeof read>>; truth: Awaited<ReturnType<typeof status>> } | undefined;
    const agrees = async (): Promise<boolean> => {
      const shown = await read();
      const truth = await status();
      if (truth.mode !== 'trading' || JSON.stringify(pick(shown)) !== JSON.stringify(expectedView(truth))) return false;
      agreed = { shown, truth };
      return true;
    };

    // Live updates: the pushes keep coming, and a move of the mark reaches the page by itself.
    const first = (await read()).seq;
    await until(async () => (await read()).seq >= first + 2, 5_000);
    const markBefore = (await read()).positions['1']?.['markPrice'];
    sim.controls.setMark(1, '65500');
    let markAfter: string | null | undefined;
    let checks = 0;
    await until(async () => {
      // A block now and then: under load the bot may be resubscribing when one goes out, and
      // with 60 s blocks it would wait a minute for the next. Each block walks on from 65500.
      if (checks++ % 40 === 0) sim.controls.advanceBlocks(1);
      markAfter = (await status()).positions[0]?.display.markPrice;
      return markAfter !== markBefore;
    }, 10_000);
    expect(Number(markAfter)).toBeGreaterThan(65_000);
    await until(async () => (await read()).positions['1']?.['markPrice'] === markAfter, 5_000);
    await until(agrees, 10_000);
    if (agreed === undefined) throw new Error('the page and /api/status never agreed');
    const { shown, truth } = agreed;
    expect(pick(shown)).toEqual(expectedView(truth));
    expect(shown.cards['mode']).toBe('trading');
    expect(Object.keys(shown.orders)).toHaveLength(2);
    expect(shown.positions['1']?.['signedSize']).toBe('0.001');
    expect(shown.fills.length).toBeGreaterThan(0);
    // Order ids: the part that tells them apart (not the wide id's shared leading zeros), the whole id on hover.
    const ids = Object.fromEntries(truth.openOrders.map((o) => [o.intentId, o.orderId]));
    const idCells = Object.entries(shown.orderIds);
    expect(idCells).toHaveLength(2);
    for (const [intentId, cell] of idCells) {
      const whole = ids[intentId];
      expect(whole).toMatch(/^0x[0-9a-f]{48}$/);
      expect(cell.title).toBe(whole);
      expect(cell.text).toBe(shortId(whole!));
    }
    expect(idCells[0]![1].text).not.toBe(idCells[1]![1].text);
    expect(shown.chartPoints).toBeGreaterThanOrEqual(2);
    expect(await page.locator('#chart canvas').count()).toBeGreaterThan(0);
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard.png'), fullPage: true });
    expect(existsSync(join(ARTIFACTS, 'dashboard.png'))).toBe(true);
  }, 60_000);
});

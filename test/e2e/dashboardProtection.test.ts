import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { multiplyDecimals } from '../../src/core/decimal.js';
import type { BotStatus } from '../../src/runtime/operations/control/botStatus.js';
import { launchChromium } from './support/chromium.js';
import { until } from './support/journalBot.js';
import { activeTpsl, signedPosition } from './support/protectionBot.js';
import { onGrid, oneStop, ProtectionOnSim } from './support/protectionOnSim.js';
import { parsePrometheus } from './support/serviceBot.js';

/** Kept by CI (gitignored); the screenshot of each run lands here. */
const ARTIFACTS = resolve(import.meta.dirname, '..', '..', 'test-artifacts');

/** What the protection panel shows, read from the DOM by the test ids and data attributes it puts on its values. */
interface PanelView {
  readonly hidden: boolean;
  readonly state: string;
  readonly refusal: string | null;
  readonly budget: string | null;
  readonly positions: Record<string, Record<string, string>>;
  /** Each TP/SL row by its id: its cells, and the position row it belongs to. */
  readonly orders: Record<string, Record<string, string>>;
}

/** Runs in the page. Source text, because the test's own TypeScript has no DOM types. */
const READ_PANEL = `(() => {
  const el = (id) => document.querySelector('[data-testid="' + id + '"]');
  const shown = (id) => (el(id).classList.contains('hidden') ? null : el(id).textContent);
  const cells = (tr) => Object.fromEntries([...tr.querySelectorAll('td[data-field]')].map((td) => [td.dataset.field, td.textContent]));
  const rows = (key) => [...el('protection-rows').querySelectorAll('tr[data-' + key + ']')];
  return {
    hidden: el('protection').classList.contains('hidden'),
    state: el('protection-state').textContent,
    refusal: shown('protection-refusal'),
    budget: shown('protection-budget'),
    positions: Object.fromEntries(rows('protected').map((tr) => [tr.dataset.protected, cells(tr)])),
    orders: Object.fromEntries(rows('tpsl').map((tr) => [tr.dataset.tpsl, { ...cells(tr), position: tr.dataset.position }])),
  };
})()`;

/** The page's rows as the API gives the same orders. */
function ordersOf(status: BotStatus): Record<string, Record<string, string>> {
  return Object.fromEntries(
    (status.protection?.orders ?? []).map((o) => [
      o.id,
      {
        role: o.role.replace('_', ' '),
        side: o.side,
        size: o.size,
        stopPrice: o.stopPrice,
        trigger: o.trigger,
        state: o.state,
        venueId: o.venueId ?? '–',
        position: `${o.strategy}:${o.marketId}`,
      },
    ]),
  );
}

/** The panel's order cells without the empty ones under the position's columns. */
const shownOrders = (view: PanelView) =>
  Object.fromEntries(
    Object.entries(view.orders).map(([id, o]) => [
      id,
      {
        role: o['role'],
        side: o['side'],
        size: o['size'],
        stopPrice: o['stopPrice'],
        trigger: o['trigger'],
        state: o['state'],
        venueId: o['venueId'],
        position: o['position'],
      },
    ]),
  );

/**
 * The dashboard's protection panel in headless Chromium, against the whole bot (runBot) with a
 * `protection:` on the simulator: each protected position with the engine's TP/SL orders, equal
 * to `/api/status` and to the venue's own TP/SL list, live as the stop is resized; and, when the
 * venue refuses TP/SL, the refusal, the emulated stop and the unprotected position shown loudly.
 */
describe('the dashboard’s protection panel in headless Chromium', () => {
  let t: ProtectionOnSim | undefined;
  let browser: Browser | undefined;
  afterEach(async () => {
    await browser?.close();
    browser = undefined;
    await t?.close();
    t = undefined;
  });

  /** The dashboard of the bot's control server, offline but for the bot; fails on any error in the page. */
  async function openDashboard(url: string): Promise<{ page: Page; errors: string[]; read: () => Promise<PanelView> }> {
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1400, height: 1200 } });
    await context.route('**/*', (route) => (route.request().url().startsWith(url) ? route.continue() : route.abort()));
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(url);
    await page.waitForSelector('body[data-connected="true"]');
    return { page, errors, read: () => page.evaluate<PanelView>(READ_PANEL) };
  }

  const statusOf = async (url: string): Promise<BotStatus> =>
    (await (await fetch(`${url}/api/status`)).json()) as BotStatus;

  it('shows the position’s stop as the venue holds it (size, stop price, id), resized live, and its metric', async () => {
    const h = (t = await ProtectionOnSim.start({ quiet: true, blockMs: 1000 }));
    const { mark, tick } = await h.grid();
    const low = onGrid(multiplyDecimals(mark, '0.95'), tick);
    await h.startBot(
      `{ bid: { price: "${low}", size: "0.003" } }`,
      '{ stop_loss_bps: 50 }',
      'protection: { venue_read_ms: 500 }\ncontrol: { port: 0 }',
    );
    const url = h.controlUrl ?? '';
    expect(url).toMatch(/^http:/);
    await h.stopsWithin(await h.take('sell', '0.002', low), oneStop('0.002'));
    const { page, errors, read } = await openDashboard(url);

    /** The panel, the API and the venue's list all hold one accepted stop of `size`. */
    const agree = async (size: string): Promise<boolean> => {
      const [venue] = await activeTpsl(h.who.rest, h.who.account);
      const view = await read();
      const orders = Object.values(shownOrders(view));
      return (
        venue?.size === size &&
        orders.length === 1 &&
        orders[0]?.['state'] === 'accepted' &&
        orders[0]['size'] === venue.size &&
        orders[0]['stopPrice'] === venue.stop_price &&
        orders[0]['venueId'] === String(venue.order_id) &&
        JSON.stringify(shownOrders(view)) === JSON.stringify(ordersOf(await statusOf(url)))
      );
    };
    await until(() => agree('0.002'), 10_000);
    const [venue] = await activeTpsl(h.who.rest, h.who.account);
    const view = await read();
    expect(view.hidden).toBe(false);
    expect(view.state).toBe('protected');
    expect(view.refusal).toBeNull();
    expect(view.positions).toEqual({
      'probe:1': { strategy: 'probe', marketId: '1', position: '0.002', protection: 'protected' },
    });
    expect(Object.values(shownOrders(view))).toEqual([
      {
        role: 'stop loss',
        side: 'SELL',
        size: '0.002',
        stopPrice: venue?.stop_price,
        trigger: 'mark',
        state: 'accepted',
        venueId: String(venue?.order_id),
        position: 'probe:1',
      },
    ]);
    // 50 bps below the entry, on the grid: the venue's stop, which the panel shows digit for digit.
    expect(venue?.stop_price).toBe(onGrid(multiplyDecimals(low, '0.995'), tick, 'up'));
    // The allowance was granted outside perpbot setup: the budget notice says the watchdog cannot vouch for it.
    const status = await statusOf(url);
    expect(view.budget).toBe(`TP/SL budget: ${status.protection?.budgetWarning}`);
    expect(view.budget).toMatch(/no OperatorHub allowance journaled/);

    // An add: the keeper resizes the stop, and the page follows by itself.
    await h.stopsWithin(await h.take('sell', '0.001', low), oneStop('0.003'));
    await until(() => agree('0.003'), 10_000);
    expect((await read()).positions['probe:1']?.['position']).toBe('0.003');
    const samples = parsePrometheus(await (await fetch(`${url}/metrics`)).text());
    const tpsl = (state: string) =>
      samples.find(
        (s) =>
          s.name === 'perpbot_tpsl_orders' &&
          s.labels['strategy'] === 'probe' &&
          s.labels['role'] === 'stop_loss' &&
          s.labels['state'] === state,
      )?.value;
    expect(tpsl('accepted')).toBe(1);
    expect(tpsl('emulated')).toBe(0);
    expect(errors).toEqual([]);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-protection.png'), fullPage: true });
  }, 90_000);

  it('a venue that refuses TP/SL: the refusal loudly, the emulated stop, the position unprotected', async () => {
    const h = (t = await ProtectionOnSim.start({ quiet: true, blockMs: 1000, refuseTpsl: true }));
    const { mark, tick } = await h.grid();
    const low = onGrid(multiplyDecimals(mark, '0.95'), tick);
    await h.startBot(
      `{ bid: { price: "${low}", size: "0.001" } }`,
      '{ stop_loss_bps: 50 }',
      'protection: { venue_read_ms: 500, grace_ms: 100 }\ncontrol: { port: 0 }',
    );
    const url = h.controlUrl ?? '';
    await h.take('sell', '0.001', low);
    await until(async () => (await signedPosition(h.who.rest, h.who.account)) === '0.001', 15_000);
    const { page, errors, read } = await openDashboard(url);
    await until(async () => (await read()).state === 'unprotected', 15_000);
    const view = await read();
    const status = await statusOf(url);
    expect(view.refusal).toContain(`TP/SL EMULATED: ${status.protection?.venueRefusal}`);
    expect(view.refusal).toMatch(/blocked pending signature verification/);
    expect(view.refusal).toMatch(/die with it/);
    expect(view.positions['probe:1']?.['protection']).toMatch(
      /^UNPROTECTED since \d\d:\d\d:\d\d: its stops are emulated by this process only$/,
    );
    expect(Object.values(shownOrders(view))).toMatchObject([
      { role: 'stop loss', side: 'SELL', size: '0.001', state: 'emulated', venueId: '–' },
    ]);
    // The venue holds nothing: the page shows the stop this process keeps, not one on the venue.
    expect(await activeTpsl(h.who.rest, h.who.account)).toEqual([]);
    // Loud: the refusal is a red box, and the attention list carries the same readiness warnings.
    const border = await page.evaluate<string>(
      `getComputedStyle(document.querySelector('[data-testid="protection-refusal"]')).borderTopWidth`,
    );
    expect(border).toBe('2px');
    await expect(page.locator('[data-testid="problem-list"]').textContent()).resolves.toMatch(
      /position of probe on market 1 unprotected/,
    );
    expect(errors).toEqual([]);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-protection-emulated.png'), fullPage: true });
  }, 90_000);
});

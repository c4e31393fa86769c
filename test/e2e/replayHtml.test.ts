import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReplayHtml, shownTotals } from '../../src/runtime/replay/replayHtml.js';
import { replayReportFixture } from '../runtime/replay/replayReportFixture.js';
import { launchChromium } from './support/chromium.js';

/** Debian's chromium package (.ci/run installs it when missing). */
const ROOT = resolve(import.meta.dirname, '..', '..');
/** Kept by CI (gitignored); the screenshot of each run lands here. */
const ARTIFACTS = join(ROOT, 'test-artifacts');
/** A name that would run script if the page put it anywhere as HTML. */
const HOSTILE = 'mm</script><script>window.injected = 1</script><img src=x onerror="window.injected = 2">';

/** The colours replay.js draws with, as RGB: each plot's data must show in its own. */
const COLOUR = { line: [88, 166, 255], position: [210, 153, 34], buy: [63, 185, 80], sell: [248, 81, 73] } as const;

/**
 * Runs in the page: for each plot, the points it was given and how many canvas pixels carry each
 * colour (uPlot draws axes, grid and series on one canvas, so "non-empty" means the series' colour).
 * Source text, because the test's own TypeScript has no DOM types.
 */
const READ_PLOTS = `((colours) => Object.fromEntries([...document.querySelectorAll('[data-plot]')].map((el) => {
  const canvas = el.querySelector('canvas');
  const counts = Object.fromEntries(Object.keys(colours).map((k) => [k, 0]));
  if (canvas !== null) {
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    for (let i = 0; i < data.length; i += 4)
      for (const [k, [r, g, b]] of Object.entries(colours))
        if (data[i + 3] === 255 && Math.abs(data[i] - r) < 8 && Math.abs(data[i + 1] - g) < 8 && Math.abs(data[i + 2] - b) < 8) counts[k]++;
  }
  const key = el.dataset.plot + (el.dataset.market === undefined ? '' : ':' + el.dataset.market);
  return [key, { points: Number(el.dataset.drawn ?? '0'), pixels: counts }];
})))(${JSON.stringify(COLOUR)})`;

const READ_TABLES = `(() => ({
  totals: Object.fromEntries([...document.querySelectorAll('[data-total]')].map((td) => [td.dataset.total, td.textContent])),
  strategies: [...document.querySelectorAll('[data-testid="strategies"] tbody tr')].map((tr) => [...tr.cells].map((td) => td.textContent)),
  plots: document.body.dataset.plots,
  injected: window.injected ?? null,
  images: document.images.length,
}))()`;

interface PlotView {
  readonly points: number;
  readonly pixels: Record<keyof typeof COLOUR, number>;
}

describe('the replay page in headless Chromium, opened from a file with no network', () => {
  let dir: string;
  let browser: Browser;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'perpbot-replay-html-'));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('draws equity and each market’s mark, with buys and sells apart, and position, and shows the totals', async () => {
    const report = replayReportFixture({ steps: 360, strategyName: HOSTILE });
    const file = join(dir, 'replay.html');
    writeFileSync(file, renderReplayHtml(report));
    const url = pathToFileURL(file).href;

    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    // Offline: anything but the page itself (a CDN, a font) fails the test.
    const outside: string[] = [];
    await context.route('**/*', (route) => {
      if (route.request().url() === url) return route.continue();
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
    await page.waitForSelector('body[data-plots]');

    const tables = await page.evaluate<{
      totals: Record<string, string>;
      strategies: string[][];
      plots: string;
      injected: number | null;
      images: number;
    }>(READ_TABLES);
    // Money as the bot's screens show it: USDC to 6 places, the exact figure in the cell's title.
    expect(tables.totals).toEqual(shownTotals(report.totals));
    for (const key of ['volume', 'fees', 'realisedPnl', 'unrealisedPnl', 'netPnl', 'maxDrawdown'])
      expect(tables.totals[key], key).toMatch(/^-?\d+\.\d{6}$/);
    expect(tables.strategies).toEqual([
      [
        HOSTILE,
        'strategies/marketMaker.ts',
        '1, 2',
        '1: 98.0 % · p50 12 ms · 2.5 actions/requote, 2: 98.0 % · p50 12 ms · 2.5 actions/requote',
      ],
      ['hedger', 'strategies/hedger.ts', '2', '–'],
    ]);
    expect(tables.injected).toBeNull();
    expect(tables.images).toBe(0);
    expect(tables.plots).toBe('5');

    const plots = await page.evaluate<Record<string, PlotView>>(READ_PLOTS);
    const { equity, position, price, fills } = report.series;
    const fillsOf = (id: number) => fills.filter((f) => f.marketId === id);
    expect(Object.keys(plots)).toEqual(['equity', 'price:1', 'position:1', 'price:2', 'position:2']);
    expect(plots['equity']!.points).toBe(equity.length);
    for (const id of [1, 2]) {
      expect(plots[`price:${id}`]!.points).toBe(price.filter((p) => p.marketId === id).length + fillsOf(id).length);
      // Each change of size, and the last size held to the recording's end.
      expect(plots[`position:${id}`]!.points).toBe(position.filter((p) => p.marketId === id).length + 1);
      expect(fillsOf(id).some((f) => f.side === 'buy') && fillsOf(id).some((f) => f.side === 'sell')).toBe(true);
    }
    // Drawn, not just laid out: each series' colour covers real area of its canvas.
    const drew = (key: string, colour: keyof typeof COLOUR) => plots[key]?.pixels[colour] ?? 0;
    expect(drew('equity', 'line')).toBeGreaterThan(500);
    for (const id of [1, 2]) {
      expect(drew(`price:${id}`, 'line')).toBeGreaterThan(500);
      expect(drew(`price:${id}`, 'buy')).toBeGreaterThan(100);
      expect(drew(`price:${id}`, 'sell')).toBeGreaterThan(100);
      expect(drew(`position:${id}`, 'position')).toBeGreaterThan(300);
    }
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'replay.png'), fullPage: true });
    await context.close();
  }, 60_000);
});

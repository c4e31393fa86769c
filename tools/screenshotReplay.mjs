#!/usr/bin/env node
// The replay page as a user opens it, photographed: how docs/replay.png is made from a real
// replay's report. Given report.json, the page is rendered by renderReplayHtml (the repository's
// TypeScript, through tsx); given the .html a replay wrote, that page is taken as it is. It is
// opened from a file in headless Chromium (playwright-core of this repository drives Debian's
// /usr/bin/chromium, as test/e2e/replayHtml.test.ts does) with every network request refused, and
// once every plot has drawn, with no page error, the full page is saved.
//
//   node tools/screenshotReplay.mjs <report.json | replay.html> <screenshot.png>
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { tsImport } from 'tsx/esm/api';

const CHROMIUM = process.env['PERPBOT_CHROMIUM'] ?? '/usr/bin/chromium';
const PAGE_TIMEOUT_MS = 30_000;

const [input, screenshotPath] = process.argv.slice(2);
if (input === undefined || screenshotPath === undefined) {
  console.error('usage: node tools/screenshotReplay.mjs <report.json | replay.html> <screenshot.png>');
  process.exit(2);
}

/** What went wrong, for the one report at the end (after the browser is closed and the page removed). */
class Failure extends Error {}
function fail(message) {
  throw new Failure(message);
}

/** The page's HTML: the replay's own page, or one rendered from its report. */
async function pageHtml(path) {
  const text = readFileSync(path, 'utf8');
  if (path.endsWith('.html')) return text;
  let report;
  try {
    report = JSON.parse(text);
  } catch (error) {
    fail(`${path} is not JSON (${error.message}): give the report.json or the .html that perpbot replay wrote`);
  }
  const { renderReplayHtml } = await tsImport('../src/runtime/replay/replayHtml.ts', import.meta.url);
  try {
    return renderReplayHtml(report);
  } catch (error) {
    return fail(`${path} could not be rendered (${error.message}): is it the report.json perpbot replay wrote?`);
  }
}

async function screenshot() {
  if (!existsSync(CHROMIUM))
    fail(
      `${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium, as .ci/run does) or set PERPBOT_CHROMIUM`,
    );
  const dir = mkdtempSync(join(tmpdir(), 'perpbot-replay-shot-'));
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
  try {
    const file = join(dir, 'replay.html');
    writeFileSync(file, await pageHtml(resolve(input)));
    const url = pathToFileURL(file).href;
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    // Offline: the page must carry everything it needs, as when a user opens it from a mail.
    const outside = [];
    await context.route('**/*', (route) => {
      if (route.request().url() === url) return route.continue();
      outside.push(route.request().url());
      return route.abort();
    });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(url);
    await page.waitForSelector('body[data-plots]', { timeout: PAGE_TIMEOUT_MS }).catch(() => {
      fail(`the page's script did not finish drawing within ${PAGE_TIMEOUT_MS} ms: ${errors.join('; ') || 'no error'}`);
    });
    const { plots, drawn } = await page.evaluate(() => ({
      plots: document.querySelectorAll('[data-plot]').length,
      drawn: document.querySelectorAll('[data-plot] canvas').length,
    }));
    if (outside.length > 0) fail(`the page asked the network for ${outside.join(', ')}`);
    if (errors.length > 0) fail(`the page logged errors: ${errors.join('; ')}`);
    if (drawn !== plots) console.warn(`replay screenshot: ${plots - drawn} of ${plots} plots had nothing to draw`);
    await page.screenshot({ path: screenshotPath, fullPage: true });
    console.log(`replay page: ${drawn} of ${plots} plots drawn; screenshot saved as ${screenshotPath}`);
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

try {
  await screenshot();
} catch (error) {
  if (!(error instanceof Failure)) throw error;
  console.error(`replay screenshot FAILED: ${error.message}`);
  process.exitCode = 1;
}

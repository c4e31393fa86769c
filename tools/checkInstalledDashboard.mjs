#!/usr/bin/env node
// Part of .ci/packageCheck.sh: the control server of a bot installed from the tarball, as a user's
// browser and Prometheus see it. Every file `/` references (its scripts and styles), `/metrics` and
// `/api/status` must answer 200; then the page is loaded in headless Chromium (playwright-core of
// this repository drives Debian's /usr/bin/chromium, as test/e2e/dashboard.test.ts does), offline
// but for the bot, and once it shows live orders, fills and a chart its screenshot is saved.
//
//   node tools/checkInstalledDashboard.mjs <control server url> <screenshot.png>
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

const CHROMIUM = process.env['PERPBOT_CHROMIUM'] ?? '/usr/bin/chromium';
/** Seconds of equity history the chart should hold before the screenshot: a line, not two dots. */
const CHART_POINTS = 30;
const PAGE_TIMEOUT_MS = 120_000;

const [url, screenshotPath] = process.argv.slice(2);
if (url === undefined || screenshotPath === undefined) {
  console.error('usage: node tools/checkInstalledDashboard.mjs <control server url> <screenshot.png>');
  process.exit(2);
}

function fail(message) {
  console.error(`dashboard check FAILED: ${message}`);
  process.exit(1);
}

/** GET `path` from the bot; anything but a 200 with a body fails the check with what came back. */
async function get(path) {
  const response = await fetch(new URL(path, url));
  const body = await response.text();
  if (response.status !== 200)
    fail(
      `GET ${path} answered ${response.status}: ${body.slice(0, 300)} (is the file in the package? see package.json "files" and tools/buildPackage.mjs)`,
    );
  if (body.length === 0) fail(`GET ${path} answered 200 with an empty body`);
  console.log(`GET ${path}: 200, ${body.length} bytes, ${response.headers.get('content-type')}`);
  return body;
}

/** The same-origin scripts and stylesheets a page loads: <script src> and <link rel=stylesheet href>. */
function referencedAssets(html) {
  const scripts = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]);
  const styles = [...html.matchAll(/<link\b[^>]*\brel="stylesheet"[^>]*\bhref="([^"]+)"/g)].map((m) => m[1]);
  return [...scripts, ...styles].filter((href) => new URL(href, url).origin === new URL(url).origin);
}

const html = await get('/');
const assets = referencedAssets(html);
if (assets.length === 0) fail('GET / references no script or stylesheet: is it the dashboard?');
for (const asset of assets) await get(asset);
if (!(await get('/metrics')).includes('perpbot_')) fail('/metrics has no perpbot_ metric');
const status = JSON.parse(await get('/api/status'));
if (!Array.isArray(status.openOrders)) fail('/api/status has no openOrders');

if (!existsSync(CHROMIUM))
  fail(
    `${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium, as .ci/run does) or set PERPBOT_CHROMIUM`,
  );
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
try {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  // Offline but for the bot: a page that needs a CDN would be blank on the user's machine.
  const outside = [];
  await context.route('**/*', (route) => {
    if (route.request().url().startsWith(url)) return route.continue();
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
  // Live (server-sent events), with the makers' quotes, a fill and a chart worth looking at.
  await page.waitForFunction(
    (points) =>
      document.body.dataset.connected === 'true' &&
      document.querySelectorAll('[data-testid="orders"] tr[data-order]').length >= 2 &&
      document.querySelectorAll('[data-testid="fills"] tr[data-fill]').length >= 1 &&
      Number(document.body.dataset.chartPoints ?? '0') >= points,
    CHART_POINTS,
    { timeout: PAGE_TIMEOUT_MS, polling: 500 },
  );
  const rows = await page.$$eval('[data-testid="orders"] tr[data-order]', (trs) =>
    trs.map((tr) => {
      const id = tr.querySelector('td[data-field="orderId"]');
      const state = tr.querySelector('td[data-field="state"]');
      return { state: state?.textContent ?? '', text: id?.textContent ?? '', title: id?.title ?? '' };
    }),
  );
  // An order queued, on its way to the venue or with its outcome unknown has no venue id yet: it shows
  // a dash and says why (the order model's states, src/engine/orders/orderState.ts). Every other row
  // shows an id of its own.
  const withoutVenueId = new Set(['queued', 'submitted', 'unknown']);
  const ids = rows.filter((row) => row.text !== '–');
  if (new Set(ids.map((id) => id.text)).size !== ids.length)
    fail(`two open orders show the same id: ${JSON.stringify(ids)}`);
  for (const id of ids)
    if (!/^0x[0-9a-f]{48}$/.test(id.title)) fail(`an order id's title is not the whole id: ${JSON.stringify(id)}`);
  for (const row of rows.filter((r) => r.text === '–'))
    if (!withoutVenueId.has(row.state) || !/no venue id yet/.test(row.title))
      fail(`an order shows no id without being one the venue has not acknowledged: ${JSON.stringify(row)}`);
  if (outside.length > 0) fail(`the page asked for something other than the bot: ${outside.join(', ')}`);
  if (errors.length > 0) fail(`the page logged errors: ${errors.join('; ')}`);
  await page.screenshot({ path: screenshotPath, fullPage: true });
  console.log(`dashboard: live, ${ids.length} open orders with distinct ids; screenshot saved as ${screenshotPath}`);
} finally {
  await browser.close();
}

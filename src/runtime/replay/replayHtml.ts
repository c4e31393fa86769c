import { fileURLToPath } from 'node:url';
import { pnlDisplay, usdc } from '../operations/control/statusDisplay.js';
import { escapeHtml, inlineable, jsonForScript, sharedPageAssets, signClass, utc } from './pageParts.js';
import type { ReplayReport } from './replayReport.js';
import { stopsPanels } from './replayStopsHtml.js';

/** The page's own script and styles (copied beside the compiled code by tools/buildPackage.mjs). */
const own = (name: string): string => fileURLToPath(new URL(`./page/${name}`, import.meta.url));

let assets: { readonly pageCss: string; readonly pageJs: string } | undefined;

function replayAssets(): { readonly pageCss: string; readonly pageJs: string } {
  assets ??= { pageCss: inlineable(own('replay.css'), 'style'), pageJs: inlineable(own('replay.js'), 'script') };
  return assets;
}

function totalsTable(totals: ReplayReport['totals']): string {
  const rows: readonly (readonly [keyof ReplayReport['totals'], string, boolean])[] = [
    ['orders', 'orders', false],
    ['fills', 'fills', false],
    ['volume', 'volume', false],
    ['fees', 'fees', false],
    ['realisedPnl', 'realised PnL', true],
    ['unrealisedPnl', 'unrealised PnL', true],
    ['netPnl', 'net PnL', true],
    ['maxDrawdown', 'max drawdown', false],
  ];
  const shown = shownTotals(totals);
  const body = rows
    .map(([key, label, signed]) => {
      const value = String(totals[key]);
      const cls = signed ? ` ${signClass(value)}` : '';
      return `<tr><th>${label}</th><td class="num${cls}" title="${escapeHtml(value)}" data-total="${key}">${escapeHtml(shown[key])}</td></tr>`;
    })
    .join('\n');
  return `<section class="panel"><h2>totals</h2>\n<table data-testid="totals">\n${body}\n</table></section>`;
}

/**
 * The totals as the bot's screens show money (statusDisplay.ts): USDC to 6 places, half to even,
 * the PnL lines adding up to netPnl on screen; each cell's title holds the exact figure.
 */
export function shownTotals(totals: ReplayReport['totals']): Record<keyof ReplayReport['totals'], string> {
  const pnl = pnlDisplay(totals);
  return {
    orders: String(totals.orders),
    fills: String(totals.fills),
    volume: usdc(totals.volume),
    fees: pnl.fees,
    realisedPnl: pnl.realisedPnl,
    unrealisedPnl: pnl.unrealisedPnl,
    netPnl: pnl.netPnl,
    maxDrawdown: usdc(totals.maxDrawdown),
  };
}

function strategiesTable(strategies: ReplayReport['strategies']): string {
  const rows = strategies.map(
    (s) =>
      `<tr data-strategy="${escapeHtml(s.name)}"><td>${escapeHtml(s.name)}</td>` +
      `<td>${escapeHtml(s.module)}</td><td>${escapeHtml(s.markets.join(', '))}</td>` +
      `<td class="num" data-field="quoteUptime">${escapeHtml(uptimeText(s.quoteUptime ?? []))}</td></tr>`,
  );
  const body = rows.length > 0 ? rows.join('\n') : '<tr><td class="empty" colspan="4">none</td></tr>';
  return (
    '<section class="panel"><h2>strategies</h2>\n<table data-testid="strategies">\n' +
    '<thead><tr><th>name</th><th>module</th><th>markets</th><th class="num">quote uptime</th></tr></thead>\n' +
    `<tbody>\n${body}\n</tbody>\n</table></section>`
  );
}

/** Per market quoted: its uptime, the median requote and actions per requote; – when nothing was wanted. */
function uptimeText(views: ReplayReport['strategies'][number]['quoteUptime']): string {
  const shown = views.filter((u) => u.uptime !== null);
  if (shown.length === 0) return '–';
  return shown
    .map((u) => {
      const p50 = u.requoteLatencyMs.p50 === null ? '' : ` · p50 ${u.requoteLatencyMs.p50} ms`;
      const actions = u.actionsPerRequote === null ? '' : ` · ${u.actionsPerRequote.toFixed(1)} actions/requote`;
      return `${shown.length > 1 ? `${u.marketId}: ` : ''}${((u.uptime ?? 0) * 100).toFixed(1)} %${p50}${actions}`;
    })
    .join(', ');
}

function header(report: ReplayReport): string {
  const { recording, options } = report;
  return (
    `<header><h1>perpbot replay</h1><span data-testid="run">${escapeHtml(recording.run)}</span>\n` +
    `<span class="muted">${utc(recording.startMs)} → ${utc(recording.endMs)} UTC · ` +
    `markets ${escapeHtml(recording.markets.join(', '))} · ${escapeHtml(String(recording.frames))} frames · ` +
    `latency ${escapeHtml(String(options.latencyMs))} ms · fees maker ${escapeHtml(options.makerFeeBps)} bps, ` +
    `taker ${escapeHtml(options.takerFeeBps)} bps</span></header>`
  );
}

/** Every market the page plots: the recording's and any that the series name. */
function plotMarkets(report: ReplayReport): number[] {
  const { price, fills, position } = report.series;
  const ids = new Set<number>([
    ...report.recording.markets,
    ...[...price, ...fills, ...position].map((p) => p.marketId),
  ]);
  return [...ids].sort((a, b) => a - b);
}

/**
 * The plots' places, filled by the page's script: equity, then each market's mark with its fills
 * and, if it held one, its position below it on the same time axis (one scale per market: sizes
 * of different markets are not comparable).
 */
function plots(report: ReplayReport): string {
  const panel = (title: string, attributes: string): string =>
    `<section class="panel"><h2>${title}</h2><div class="plot" ${attributes}></div></section>`;
  const held = new Set(report.series.position.map((p) => p.marketId));
  const market = (id: number): string[] => {
    const shown = escapeHtml(String(id));
    const price = panel(`market ${shown}: mark price and fills`, `data-plot="price" data-market="${shown}"`);
    if (!held.has(id)) return [price];
    return [price, panel(`market ${shown}: position`, `data-plot="position" data-market="${shown}"`)];
  };
  return [panel('equity', 'data-plot="equity"'), ...plotMarkets(report).flatMap(market)].join('\n');
}

/**
 * The replay's report as one self-contained HTML page: the totals and strategies as HTML (readable
 * with scripts off), the report itself as JSON for the page's script, which draws equity and each
 * market's mark with its fills and its position. The same report gives the same bytes.
 */
export function renderReplayHtml(report: ReplayReport): string {
  const { uplotCss, uplotJs, themeCss } = sharedPageAssets();
  const { pageCss, pageJs } = replayAssets();
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>perpbot replay · ${escapeHtml(report.recording.run)}</title>
<style>${uplotCss}</style>
<style>${themeCss}</style>
<style>${pageCss}</style>
</head>
<body>
${header(report)}
<main>
<div class="columns">
${totalsTable(report.totals)}
${strategiesTable(report.strategies)}
</div>
${stopsPanels(report.strategies)}${plots(report)}
</main>
<script type="application/json" id="replay-report">${jsonForScript(report)}</script>
<script>${uplotJs}</script>
<script>${pageJs}</script>
</body>
</html>
`;
}

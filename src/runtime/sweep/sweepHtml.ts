import { fileURLToPath } from 'node:url';
import type { SweepObjective } from '../config/sweepSchema.js';
import { escapeHtml, inlineable, jsonForScript, sharedPageAssets, signClass, utc } from '../replay/pageParts.js';
import { heatmapPanel } from './sweepHeatmap.js';
import type { SweepMetrics } from './sweepMetrics.js';
import { metricValue, type RankedEntry } from './sweepRanking.js';
import type { SweepSummary, WindowEntry, WindowSummary } from './sweepSummary.js';
import type { Variant } from './sweepVariants.js';

/** Equity samples of a variant's whole-recording replay, for the page's equity plot. */
export interface VariantEquity {
  readonly variant: string;
  readonly points: readonly { readonly t: number; readonly value: string }[];
}

const own = (name: string): string => fileURLToPath(new URL(`./page/${name}`, import.meta.url));
let assets: { readonly layoutCss: string; readonly pageCss: string; readonly pageJs: string } | undefined;

/** The replay page's layout (header, panels, plots), the sweep page's own rules and its script. */
function sweepAssets(): { readonly layoutCss: string; readonly pageCss: string; readonly pageJs: string } {
  assets ??= {
    layoutCss: inlineable(fileURLToPath(new URL('../replay/page/replay.css', import.meta.url)), 'style'),
    pageCss: inlineable(own('sweep.css'), 'style'),
    pageJs: inlineable(own('sweep.js'), 'script'),
  };
  return assets;
}

const OBJECTIVE_LABEL: Readonly<Record<SweepObjective, string>> = {
  net_pnl: 'net PnL',
  sharpe: 'Sharpe',
  max_drawdown: 'max drawdown',
  fills: 'fills',
  quote_uptime: 'quote uptime',
};

const show = (value: string | number | null): string =>
  value === null ? '–' : typeof value === 'number' ? String(value) : value;

function figureCells(m: SweepMetrics): string {
  const cell = (value: string | number | null, signed = false): string => {
    const text = show(value);
    const cls = signed && typeof value === 'string' ? ` ${signClass(value)}` : '';
    return `<td class="num${cls}">${escapeHtml(text)}</td>`;
  };
  return [
    cell(m.netPnl, true),
    cell(m.sharpe),
    cell(m.maxDrawdown),
    cell(m.fills),
    cell(m.orders),
    cell(m.quoteUptime === null ? null : `${(m.quoteUptime * 100).toFixed(1)}%`),
  ].join('');
}

const FIGURE_HEADS =
  '<th>net PnL</th><th>Sharpe</th><th>max drawdown</th><th>fills</th><th>orders</th><th>quote uptime</th>';

function paramCells(variant: Variant, names: readonly string[]): string {
  return names.map((n) => `<td class="num">${escapeHtml(String(variant.params[n] ?? ''))}</td>`).join('');
}

function rankingTable(summary: SweepSummary): string {
  const names = Object.keys(summary.header.variants[0]?.params ?? {});
  const top = summary.header.top;
  const rows = summary.ranking.map((r) => {
    const cls = [r.rank <= top ? 'top' : '', r.feasible ? '' : 'infeasible'].filter((c) => c !== '').join(' ');
    return (
      `<tr data-variant="${escapeHtml(r.entry.id)}"${cls === '' ? '' : ` class="${cls}"`}><td class="num">${r.rank}</td>` +
      `<td>${escapeHtml(r.entry.id)}</td>${paramCells(r.entry, names)}${figureCells(r.metrics)}` +
      `<td>${r.feasible ? 'yes' : `no: ${escapeHtml(r.violated.join('; '))}`}</td></tr>`
    );
  });
  const heads = names.map((n) => `<th>${escapeHtml(n)}</th>`).join('');
  const body =
    rows.length > 0 ? rows.join('\n') : `<tr><td class="empty" colspan="${names.length + 9}">no results yet</td></tr>`;
  return (
    `<section class="panel"><h2>variants ranked by ${OBJECTIVE_LABEL[summary.header.objective]}</h2>\n` +
    `<table data-testid="ranking"><thead><tr><th>rank</th><th>variant</th>${heads}${FIGURE_HEADS}<th>feasible</th></tr></thead>\n` +
    `<tbody>\n${body}\n</tbody></table></section>`
  );
}

function windowTable(w: WindowSummary, summary: SweepSummary): string {
  const names = Object.keys(summary.header.variants[0]?.params ?? {});
  const objective = summary.header.objective;
  const rows = w.ranked.slice(0, summary.header.top).map((r: RankedEntry<WindowEntry>) => {
    const is = metricValue(r.entry.inSample, objective);
    const oos = metricValue(r.entry.outOfSample, objective);
    const picked = r === w.pick ? ' class="pick"' : '';
    return (
      `<tr${picked} data-variant="${escapeHtml(r.entry.variant.id)}"><td class="num">${r.rank}</td><td>${escapeHtml(r.entry.variant.id)}</td>` +
      `${paramCells(r.entry.variant, names)}<td class="num">${escapeHtml(show(is))}</td><td class="num">${escapeHtml(show(oos))}</td>` +
      `<td class="num">${escapeHtml(r.entry.inSample.netPnl)}</td><td class="num">${escapeHtml(r.entry.outOfSample.netPnl)}</td>` +
      `<td class="num">${escapeHtml(r.entry.inSample.maxDrawdown)}</td><td class="num">${escapeHtml(r.entry.outOfSample.maxDrawdown)}</td>` +
      `<td>${r.feasible ? 'yes' : 'no'}</td></tr>`
    );
  });
  const heads = names.map((n) => `<th>${escapeHtml(n)}</th>`).join('');
  const label = OBJECTIVE_LABEL[objective];
  const span = (id: string): string => `<span class="id">${escapeHtml(w.window.recording)} ${escapeHtml(id)}</span>`;
  return (
    `<section class="panel" data-window="${w.window.index}"><h2>window ${w.window.index}: train ${span(w.window.train)}, test ${span(w.window.test)}</h2>\n` +
    `<table data-testid="window"><thead><tr><th>rank</th><th>variant</th>${heads}<th>${label} in sample</th><th>${label} out of sample</th>` +
    '<th>net in</th><th>net out</th><th>drawdown in</th><th>drawdown out</th><th>feasible</th></tr></thead>\n' +
    `<tbody>\n${rows.join('\n')}\n</tbody></table></section>`
  );
}

function walkForwardPanel(summary: SweepSummary): string {
  if (summary.windows.length === 0) return '';
  const wf = summary.walkForward;
  const line =
    wf === undefined
      ? 'no window had a feasible variant'
      : `the windows' picks together: net PnL ${escapeHtml(wf.inSample.netPnl)} in sample, ` +
        `<strong class="${signClass(wf.outOfSample.netPnl)}" data-testid="wf-oos">${escapeHtml(wf.outOfSample.netPnl)}</strong> out of sample; ` +
        `max drawdown ${escapeHtml(wf.inSample.maxDrawdown)} in, ${escapeHtml(wf.outOfSample.maxDrawdown)} out`;
  return (
    `<section class="panel"><h2>walk-forward</h2><p>Each window ranks the variants on its train span (in sample) ` +
    `and shows how the top ones did on the test span that follows (out of sample). A variant far better in sample ` +
    `than out of it fits noise. ${line.charAt(0).toUpperCase()}${line.slice(1)}.</p>` +
    `<div class="plot" data-plot="is-oos"></div></section>\n${summary.windows.map((w) => windowTable(w, summary)).join('\n')}`
  );
}

function pageHeader(summary: SweepSummary): string {
  const h = summary.header;
  const recordings = h.recordings
    .map(
      (r) => `${escapeHtml(r.id)} ${escapeHtml(r.run)} (${utc(r.startMs)} → ${utc(r.endMs)} UTC, ${r.frames} frames)`,
    )
    .join('; ');
  const state = summary.done === summary.total ? 'complete' : `${summary.done} of ${summary.total} replays done`;
  return (
    `<header><h1>perpbot sweep</h1><span data-testid="strategy">${escapeHtml(h.strategy)}</span>` +
    `<span class="muted">${h.variants.length} variants · ${state}${h.shard === undefined ? '' : ` · shard ${h.shard.index}/${h.shard.count}`} · ` +
    `objective ${OBJECTIVE_LABEL[h.objective]} · constraints ${escapeHtml(h.constraints.join(', ') || 'none')} · ${recordings}</span></header>`
  );
}

function chosenPanel(summary: SweepSummary): string {
  const chosen = summary.chosen;
  const text =
    chosen === undefined
      ? 'no feasible variant'
      : `${escapeHtml(chosen.id)}: ${escapeHtml(
          Object.entries(chosen.params)
            .map(([k, v]) => `${k} = ${String(v)}`)
            .join(', '),
        )} (best.yaml beside this page)`;
  return `<section class="panel"><h2>chosen</h2><p data-testid="chosen">${text}</p></section>`;
}

/** What the page's script draws from: the objective of every variant, in and out of sample, and the equity series. */
function plotData(summary: SweepSummary, equity: readonly VariantEquity[]): unknown {
  const objective = summary.header.objective;
  return {
    objective,
    label: OBJECTIVE_LABEL[objective],
    params: Object.keys(summary.header.variants[0]?.params ?? {}),
    ranking: summary.ranking.map((r) => ({
      id: r.entry.id,
      params: r.entry.params,
      value: metricValue(r.metrics, objective),
      feasible: r.feasible,
    })),
    windows: summary.windows.map((w) =>
      w.ranked.map((r) => ({
        id: r.entry.variant.id,
        inSample: metricValue(r.entry.inSample, objective),
        outOfSample: metricValue(r.entry.outOfSample, objective),
      })),
    ),
    equity,
  };
}

/** The plots' places: the objective by each param (a whole-recording ranking only), the top variants' equity. */
function plotPanels(summary: SweepSummary, equityCount: number): { params: string; equity: string } {
  const label = OBJECTIVE_LABEL[summary.header.objective];
  const names = Object.keys(summary.header.variants[0]?.params ?? {});
  const params =
    summary.ranking.length === 0
      ? ''
      : names
          .map(
            (n) =>
              `<section class="panel"><h2>${label} by ${escapeHtml(n)}</h2>` +
              `<div class="plot" data-plot="param" data-param="${escapeHtml(n)}"></div></section>`,
          )
          .join('\n');
  const equity =
    equityCount === 0
      ? ''
      : `<section class="panel"><h2>equity of the top ${equityCount}</h2><div class="plot" data-plot="equity"></div></section>`;
  return { params, equity };
}

/**
 * A sweep's study as one self-contained page: the ranking (and with walk-forward each window's
 * in-sample and out-of-sample figures side by side) as HTML, readable with scripts off, and the
 * plots the page's script draws from the figures it carries: the objective against each param,
 * the top variants' equity, and in-sample against out-of-sample; and the objective over two params
 * as a heatmap table (sweepHeatmap.ts). The same study gives the same bytes.
 */
export function renderSweepHtml(summary: SweepSummary, equity: readonly VariantEquity[]): string {
  const { uplotCss, uplotJs, themeCss } = sharedPageAssets();
  const { layoutCss, pageCss, pageJs } = sweepAssets();
  const plots = plotPanels(summary, equity.length);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>perpbot sweep · ${escapeHtml(summary.header.strategy)}</title>
<style>${uplotCss}</style>
<style>${themeCss}</style>
<style>${layoutCss}</style>
<style>${pageCss}</style>
</head>
<body>
${pageHeader(summary)}
<main>
${chosenPanel(summary)}
${summary.windows.length === 0 ? rankingTable(summary) : ''}
${heatmapPanel(summary.ranking, Object.keys(summary.header.variants[0]?.params ?? {}), summary.header.objective, OBJECTIVE_LABEL[summary.header.objective])}
<div class="columns">
${plots.params}
</div>
${plots.equity}
${walkForwardPanel(summary)}
</main>
<script type="application/json" id="sweep-data">${jsonForScript(plotData(summary, equity))}</script>
<script>${uplotJs}</script>
<script>${pageJs}</script>
</body>
</html>
`;
}

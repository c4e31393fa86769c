import { usdc } from '../operations/control/statusDisplay.js';
import { escapeHtml, signClass, utc } from './pageParts.js';
import type { ReplayReport, ReplayStop, ReplayStops } from './replayReport.js';

const COLUMNS = [
  'market',
  'leg',
  'size',
  'stop price',
  'on',
  'state',
  'placed',
  'fired at',
  'ended',
  'filled',
  'realised PnL',
  'fees',
] as const;

/** USDC as the bot's screens show it (6 places, half to even), the exact figure in the title, coloured by its sign. */
function money(value: string, field: string, signed: boolean): string {
  const cls = signed ? ` ${signClass(value)}` : '';
  return `<td class="num${cls}" title="${escapeHtml(value)}" data-field="${field}">${escapeHtml(usdc(value))}</td>`;
}

const time = (t: number | null): string => (t === null ? '–' : escapeHtml(utc(t).slice(11)));

function row(stop: ReplayStop): string {
  const cells = [
    `<td>${escapeHtml(String(stop.marketId))}</td>`,
    `<td>${stop.role === 'stop_loss' ? 'stop-loss' : 'take-profit'} (${stop.side})</td>`,
    `<td class="num">${escapeHtml(stop.size)}</td>`,
    `<td class="num">${escapeHtml(stop.stopPrice)}</td>`,
    `<td>${stop.trigger}</td>`,
    `<td data-field="state"${stop.reason === null ? '' : ` title="${escapeHtml(stop.reason)}"`}>${stop.state}</td>`,
    `<td>${time(stop.placedT)}</td>`,
    `<td class="num" data-field="triggeredPrice">${escapeHtml(stop.triggeredPrice ?? '–')}</td>`,
    `<td>${time(stop.endT)}</td>`,
    `<td class="num" data-field="filledSize">${escapeHtml(stop.filledSize)}</td>`,
    money(stop.realisedPnl, 'realisedPnl', true),
    money(stop.fees, 'fees', false),
  ];
  return `<tr data-stop="${escapeHtml(stop.id)}">${cells.join('')}</tr>`;
}

/** The orders worth a line: those that fired, were refused, or were still held at the end; not the resizes' cancels. */
function shown(stops: ReplayStops): ReplayStop[] {
  return stops.orders.filter((o) => o.state !== 'cancelled' || o.fills.length > 0 || o.triggeredPrice !== null);
}

function summary(stops: ReplayStops, hidden: number): string {
  const parts = [
    `${stops.placed} placed`,
    `${stops.triggered} fired`,
    `${stops.executed} executed (${escapeHtml(stops.executedSize)})`,
    `${stops.cancelled} cancelled${hidden > 0 ? ` (${hidden} not listed: resized, flat or their pair fired; see report.json)` : ''}`,
    ...(stops.refused > 0 ? [`${stops.refused} refused`] : []),
  ];
  return `<p class="muted" data-field="summary">${parts.join(' · ')}</p>`;
}

function panel(name: string, stops: ReplayStops): string {
  const listed = shown(stops);
  const head = `<thead><tr>${COLUMNS.map((c) => `<th>${c}</th>`).join('')}</tr></thead>`;
  const rows =
    listed.length > 0 ? listed.map(row) : [`<tr><td class="empty" colspan="${COLUMNS.length}">none</td></tr>`];
  const total =
    `<tfoot><tr><th colspan="${COLUMNS.length - 2}">executions</th>` +
    `${money(stops.realisedPnl, 'realisedPnl', true)}${money(stops.fees, 'fees', false)}</tr></tfoot>`;
  return (
    `<section class="panel" data-testid="stops" data-strategy="${escapeHtml(name)}">` +
    `<h2>stops · ${escapeHtml(name)}</h2>\n${summary(stops, stops.orders.length - listed.length)}\n` +
    `<table>\n${head}\n<tbody>\n${rows.join('\n')}\n</tbody>\n${total}\n</table></section>`
  );
}

/**
 * The TP/SL orders of each protected strategy, one panel each (times UTC, on the recording's
 * clock): what fired, at which price, what its execution filled and realised. Empty when no
 * strategy has `protection:`, so such a page is what it was.
 */
export function stopsPanels(strategies: ReplayReport['strategies']): string {
  return strategies.flatMap((s) => (s.stops === undefined ? [] : [`${panel(s.name, s.stops)}\n`])).join('');
}

import type { ParamValue, SweepObjective } from '../config/sweepSchema.js';
import { escapeHtml } from '../replay/pageParts.js';
import { lowerIsBetter, metricValue, type RankedEntry } from './sweepRanking.js';
import type { Variant } from './sweepVariants.js';

/** One cell: the best variant (in the ranking's order) with these two values, and how good it is (0 worst, 1 best). */
interface Cell {
  readonly best: RankedEntry<Variant>;
  readonly value: string | number | null;
  shade?: number;
}

/** Each param's values as the grid gives them: numbers ascending, others in the order first met. */
function axisValues(ranking: readonly RankedEntry<Variant>[], name: string): ParamValue[] {
  const seen: ParamValue[] = [];
  for (const r of ranking) {
    const v = r.entry.params[name];
    if (v !== undefined && !seen.includes(v)) seen.push(v);
  }
  return seen.every((v) => typeof v === 'number') ? seen.sort((a, b) => a - b) : seen;
}

const key = (x: ParamValue, y: ParamValue): string => JSON.stringify([x, y]);

/**
 * The cells of a pair of params: the ranking is best first (feasible before ruled out), so a
 * cell's first variant is the best the other params give at that point. Shades spread the cells'
 * objective between the worst and the best of them (only the colour turns money into a float).
 */
function cellsOf(ranking: readonly RankedEntry<Variant>[], x: string, y: string, objective: SweepObjective) {
  const cells = new Map<string, Cell>();
  for (const r of ranking) {
    const at = key(r.entry.params[x]!, r.entry.params[y]!);
    if (!cells.has(at)) cells.set(at, { best: r, value: metricValue(r.metrics, objective) });
  }
  const numbers = [...cells.values()].flatMap((c) => (c.value === null ? [] : [Number(c.value)]));
  const [low, high] = [Math.min(...numbers), Math.max(...numbers)];
  for (const c of cells.values()) {
    if (c.value === null) continue;
    const t = high === low ? 1 : (Number(c.value) - low) / (high - low);
    c.shade = lowerIsBetter(objective) ? 1 - t : t;
  }
  return cells;
}

/** Red through grey to green, by how good a cell is; a ruled-out best is drawn hollow. */
function cellStyle(cell: Cell): string {
  if (cell.shade === undefined) return '';
  const good = cell.shade >= 0.5;
  const strength = (Math.abs(cell.shade - 0.5) * 2 * 0.55 + 0.08).toFixed(2);
  const rgb = good ? '63, 185, 80' : '248, 81, 73';
  return cell.best.feasible
    ? ` style="background: rgba(${rgb}, ${strength})"`
    : ` style="box-shadow: inset 0 0 0 2px rgba(${rgb}, ${strength})"`;
}

function heatmapTable(
  ranking: readonly RankedEntry<Variant>[],
  x: string,
  y: string,
  objective: SweepObjective,
  shown: boolean,
): string {
  const cells = cellsOf(ranking, x, y, objective);
  const columns = axisValues(ranking, x);
  const heads = columns.map((v) => `<th class="num">${escapeHtml(String(v))}</th>`).join('');
  const rows = axisValues(ranking, y).map((yv) => {
    const tds = columns.map((xv) => {
      const cell = cells.get(key(xv, yv));
      if (cell === undefined) return '<td class="num empty">–</td>';
      const title = `${cell.best.entry.id}${cell.best.feasible ? '' : ' (ruled out)'}`;
      const text = cell.value === null ? '–' : String(cell.value);
      return `<td class="num" title="${escapeHtml(title)}"${cellStyle(cell)}>${escapeHtml(text)}</td>`;
    });
    return `<tr><th class="num">${escapeHtml(String(yv))}</th>${tds.join('')}</tr>`;
  });
  return (
    `<table class="heatmap" data-testid="heatmap" data-x="${escapeHtml(x)}" data-y="${escapeHtml(y)}"${shown ? '' : ' hidden'}>` +
    `<thead><tr><th>${escapeHtml(y)} \\ ${escapeHtml(x)}</th>${heads}</tr></thead>\n<tbody>\n${rows.join('\n')}\n</tbody></table>`
  );
}

/**
 * The objective over two params at once, a table of coloured cells (readable with scripts off):
 * the first two params swept, and every other pair a selector away. Each cell is the best variant
 * at that point (the other params at their best for it). Nothing with fewer than two params.
 */
export function heatmapPanel(
  ranking: readonly RankedEntry<Variant>[],
  names: readonly string[],
  objective: SweepObjective,
  label: string,
): string {
  if (names.length < 2 || ranking.length === 0) return '';
  const pairs = names.flatMap((x, i) => names.slice(i + 1).map((y) => [x, y] as const));
  const tables = pairs.map(([x, y], i) => heatmapTable(ranking, x, y, objective, i === 0)).join('\n');
  const options = pairs
    .map(([x, y], i) => `<option value="${i}">${escapeHtml(x)} × ${escapeHtml(y)}</option>`)
    .join('');
  const select =
    pairs.length > 1 ? `<label class="muted">params <select data-heatmap-pairs>${options}</select></label>` : '';
  return (
    `<section class="panel"><h2>${escapeHtml(label)} over two params</h2>${select}\n` +
    `<p class="muted">Each cell: the best variant at that point (greener is better; an outline, ruled out by a constraint).</p>\n${tables}</section>`
  );
}

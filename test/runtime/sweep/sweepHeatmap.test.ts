import { describe, expect, it } from 'vitest';
import { heatmapPanel } from '../../../src/runtime/sweep/sweepHeatmap.js';
import type { SweepMetrics } from '../../../src/runtime/sweep/sweepMetrics.js';
import { sweepMetricsOf } from './support/sweepMetricsOf.js';
import { rankEntries, parseConstraint } from '../../../src/runtime/sweep/sweepRanking.js';
import type { Variant } from '../../../src/runtime/sweep/sweepVariants.js';

const m = sweepMetricsOf;

/** A 2 x 2 grid of spread and requote, each point twice over a third param (size). */
function ranked(constraints: readonly string[] = []) {
  const entries: { entry: Variant; metrics: SweepMetrics }[] = [];
  const pnl: Record<string, [string, string]> = {
    '2,2': ['1', '3'],
    '2,4': ['-2', '-1'],
    '8,2': ['5', '4'],
    '8,4': ['0', '0.5'],
  };
  let n = 0;
  for (const [point, [small, large]] of Object.entries(pnl)) {
    const [spread, requote] = point.split(',').map(Number) as [number, number];
    for (const [size, net] of [
      ['0.001', small],
      ['0.002', large],
    ] as const)
      entries.push({
        entry: { id: `v${++n}`, params: { spread_bps: spread, requote_bps: requote, size } },
        metrics: m(net, net === '5' ? '9' : '1'),
      });
  }
  return rankEntries(entries, 'net_pnl', constraints.map(parseConstraint));
}

/** The cells of the table over `x` and `y`: its rows as [y, ...cell texts]. */
function cells(html: string, x: string, y: string): string[][] {
  const table = new RegExp(`<table class="heatmap"[^>]*data-x="${x}" data-y="${y}"[^>]*>([\\s\\S]*?)</table>`).exec(
    html,
  )?.[1];
  expect(table).toBeDefined();
  return [...table!.matchAll(/<tr><th class="num">([^<]*)<\/th>(.*?)<\/tr>/g)].map((row) => [
    row[1]!,
    ...[...row[2]!.matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((c) => c[1]!),
  ]);
}

describe('sweep heatmap', () => {
  it('each cell is the best variant at that point of the two params, the others at their best for it', () => {
    const html = heatmapPanel(ranked(), ['spread_bps', 'requote_bps', 'size'], 'net_pnl', 'net PnL');
    // Columns spread 2, 8; rows requote 2, 4; each cell the better of its two sizes.
    expect(cells(html, 'spread_bps', 'requote_bps')).toEqual([
      ['2', '3', '5'],
      ['4', '-1', '0.5'],
    ]);
    expect(cells(html, 'spread_bps', 'size')).toEqual([
      ['0.001', '1', '5'],
      ['0.002', '3', '4'],
    ]);
    // The first pair is shown, every other a selector away.
    expect(html).toMatch(/data-x="spread_bps" data-y="requote_bps">/);
    expect(html).toMatch(/data-x="spread_bps" data-y="size" hidden>/);
    expect(html).toMatch(/data-x="requote_bps" data-y="size" hidden>/);
    expect(html).toContain('<option value="2">requote_bps × size</option>');
  });

  it('greener is better, the best and worst cells at the ends; a ruled-out best drawn as an outline', () => {
    const html = heatmapPanel(ranked(['max_drawdown <= 5']), ['spread_bps', 'requote_bps'], 'net_pnl', 'net PnL');
    // v5 (spread 8, requote 2, 5 net) fails the drawdown: the cell's best feasible one is v6 (4).
    expect(cells(html, 'spread_bps', 'requote_bps')).toEqual([
      ['2', '3', '4'],
      ['4', '-1', '0.5'],
    ]);
    expect(html).toMatch(/title="v6" style="background: rgba\(63, 185, 80, 0\.63\)">4</);
    expect(html).toMatch(/title="v4" style="background: rgba\(248, 81, 73, 0\.63\)">-1</);
    const allRuledOut = heatmapPanel(ranked(['max_drawdown <= 0']), ['spread_bps', 'requote_bps'], 'net_pnl', 'x');
    expect(allRuledOut).toMatch(
      /title="v5 \(ruled out\)" style="box-shadow: inset 0 0 0 2px rgba\(63, 185, 80, 0\.63\)"/,
    );
  });

  it('nothing with one param or no results', () => {
    expect(heatmapPanel(ranked(), ['spread_bps'], 'net_pnl', 'net PnL')).toBe('');
    expect(heatmapPanel([], ['spread_bps', 'requote_bps'], 'net_pnl', 'net PnL')).toBe('');
  });
});

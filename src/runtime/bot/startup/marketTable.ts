import type { Market } from '../../../venue/schemas/restMarkets.js';

/** One market as a user picks it for the config: id, name and the grid every order is snapped to. */
export interface MarketRow {
  readonly id: number;
  readonly name: string;
  readonly tick: string;
  readonly step: string;
  readonly minSize: string;
  readonly maxLeverage?: string;
  readonly mark: string;
}

export function marketRows(markets: readonly Market[]): MarketRow[] {
  return markets
    .map((m) => ({
      id: Number(m.market_id),
      name: m.display_name ?? m.config.name,
      tick: m.config.step_price,
      step: m.config.step_size,
      minSize: m.config.min_order_size,
      ...(m.config.max_leverage === undefined ? {} : { maxLeverage: m.config.max_leverage }),
      mark: m.mark_price,
    }))
    .sort((a, b) => a.id - b.id);
}

/** "1 BTC-PERP (tick 0.1, step 0.0001, min size 0.0001); 2 ..." for a one-line error. */
export function marketsInOneLine(rows: readonly MarketRow[]): string {
  return rows.map((r) => `${r.id} ${r.name} (tick ${r.tick}, step ${r.step}, min size ${r.minSize})`).join('; ');
}

/** The table `perpbot markets` prints: aligned columns, one market per line. */
export function formatMarketTable(rows: readonly MarketRow[]): string {
  const header = ['id', 'name', 'tick', 'step', 'min size', 'max leverage', 'mark'];
  const cells = rows.map((r) => [String(r.id), r.name, r.tick, r.step, r.minSize, r.maxLeverage ?? '-', r.mark]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
  const line = (c: readonly string[]): string =>
    c
      .map((v, i) => v.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return `${[line(header), ...cells.map(line)].join('\n')}\n`;
}

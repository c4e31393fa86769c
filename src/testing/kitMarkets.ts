import type { MarketDefinition } from '../sim/exchange/markets.js';

/** A market of the kit: its grid (defaults: tick 0.1, step 0.001, minimum size 0.001) and starting mark. */
export interface KitMarket {
  readonly tick?: string;
  readonly step?: string;
  readonly minSize?: string;
  /** Default "50". */
  readonly maxLeverage?: string;
  /** The mark the venue lists before the first scripted one (default "100"). */
  readonly mark?: string;
}

/** The kit's markets as the simulator defines them: tradable, unlocked, no post-only or reduce-only restriction. */
export function kitMarkets(ids: readonly number[], config: Readonly<Record<number, KitMarket>>): MarketDefinition[] {
  return ids.map((id) => {
    const m = config[id] ?? {};
    const name = `KIT${id}/USDC`;
    return {
      market_id: id,
      display_name: name,
      active: true,
      post_only: false,
      reduce_only: false,
      initial_mark_price: m.mark ?? '100',
      config: {
        name,
        step_size: m.step ?? '0.001',
        step_price: m.tick ?? '0.1',
        min_order_size: m.minSize ?? '0.001',
        max_leverage: m.maxLeverage ?? '50',
        maintenance_margin_factor: '0.01',
        unlocked: true,
      },
    };
  });
}

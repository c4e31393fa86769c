import type { Market } from '../../venue/schemas/restMarkets.js';
import type { MarketDefinition } from '../exchange/markets.js';

/**
 * What a shadow assumes when the venue's market record leaves a margin parameter out (both are
 * optional on the wire): the simulator's most conservative market, so a paper position is never
 * allowed more leverage than the venue could give it.
 */
const ABSENT_MAX_LEVERAGE = '10';
const ABSENT_MAINTENANCE_MARGIN_FACTOR = '0.05';

/**
 * The venue's market as the simulator defines one, for a local shadow of that venue (paper
 * trading): the same id, grid and minimum size, starting at the venue's mark.
 */
export function marketDefinitionOf(market: Market): MarketDefinition {
  const { config } = market;
  return {
    market_id: Number(market.market_id),
    display_name: market.display_name ?? config.name,
    active: market.active ?? true,
    post_only: market.post_only ?? false,
    reduce_only: market.reduce_only ?? false,
    initial_mark_price: market.mark_price,
    config: {
      name: config.name,
      step_size: config.step_size,
      step_price: config.step_price,
      min_order_size: config.min_order_size,
      max_leverage: config.max_leverage ?? ABSENT_MAX_LEVERAGE,
      maintenance_margin_factor: config.maintenance_margin_factor ?? ABSENT_MAINTENANCE_MARGIN_FACTOR,
      unlocked: config.unlocked ?? true,
    },
  };
}

import type { RiskLimits, StrategyConfig } from './configSchema.js';

/** A strategy's own budget, field by field, falling back to the global limits it does not set. */
export function effectiveRisk(global: RiskLimits, strategy: Pick<StrategyConfig, 'risk'>): RiskLimits {
  const own = strategy.risk;
  if (own === undefined) return global;
  return Object.freeze({
    max_order_notional: own.max_order_notional ?? global.max_order_notional,
    max_position_per_market: own.max_position_per_market ?? global.max_position_per_market,
    max_open_orders: own.max_open_orders ?? global.max_open_orders,
    max_actions_per_second: own.max_actions_per_second ?? global.max_actions_per_second,
    kill_switch: own.kill_switch ?? global.kill_switch,
  });
}

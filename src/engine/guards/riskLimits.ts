import { withEngineDefaults, type GuardConfig } from '../config/engineConfig.js';

/**
 * The risk limits as a user writes them (the config's `risk:` section, a strategy's own budget,
 * the test kit's `risk` option), in the config's names; notionals are USDC decimal strings. The
 * config's schema produces this shape (`riskSchema` in runtime/config/configSchema.ts is checked
 * against it), and the engine reads it through `guardLimitsOf`.
 */
export interface RiskLimits {
  readonly max_order_notional: string;
  readonly max_position_per_market: string;
  readonly max_open_orders: number;
  readonly max_actions_per_second: number;
  readonly kill_switch: { readonly max_loss: string };
}

/** A strategy's own budget: any of the limits, each falling back to the global one. */
export type StrategyRiskLimits = { readonly [K in keyof RiskLimits]?: RiskLimits[K] | undefined };

/** A strategy's own budget, field by field, falling back to the global limits it does not set. */
export function effectiveRisk(
  global: RiskLimits,
  strategy: { readonly risk?: StrategyRiskLimits | undefined },
): RiskLimits {
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

/** Risk limits (global, or a strategy's effective budget) as the engine's guard limits. */
export function guardLimitsOf(risk: RiskLimits): Partial<GuardConfig> {
  return {
    maxOrderNotional: risk.max_order_notional,
    maxPositionNotional: risk.max_position_per_market,
    maxOpenOrders: risk.max_open_orders,
    actionsPerSecond: risk.max_actions_per_second,
    actionBurst: risk.max_actions_per_second,
    killSwitchMaxLoss: risk.kill_switch.max_loss,
  };
}

/** A strategy's effective budget as guard limits (the engine's defaults for knobs it has none of). */
export function budgetGuardConfig(budget: RiskLimits): GuardConfig {
  return withEngineDefaults({ guards: { ...guardLimitsOf(budget), maxPositionNotionalByMarket: {} } }).guards;
}

import { withEngineDefaults, type EngineConfig, type GuardConfig } from '../../../engine/engineConfig.js';
import type { Config, RiskLimits } from '../../config/configSchema.js';

/** The one mapping from the YAML config onto the engine's knobs. */
export function engineConfigFromConfig(config: Config): EngineConfig {
  const { engine, risk } = config;
  return withEngineDefaults({
    preTrade: { defaultMaxSlippageBps: engine.max_slippage_bps },
    guards: guardLimitsOf(risk),
    nonces: { slot: engine.nonce_slot.k, slots: engine.nonce_slot.n },
    retry: {
      accountNotRegisteredMaxAttempts: engine.registration_retry.attempts,
      accountNotRegisteredBaseDelayMs: engine.registration_retry.base_ms,
    },
    degraded: {
      allowCancels: config.degraded.allow_cancels,
      allowReduceOnly: config.degraded.allow_reduce_only,
      maxOutageMs: config.degraded.max_outage_ms,
      onMaxOutage: config.degraded.on_max_outage,
    },
  });
}

/** A `risk:` block (global, or a strategy's effective budget) as the engine's guard limits. */
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

import { withEngineDefaults, type EngineConfig } from '../../engine/engineConfig.js';
import type { Config } from '../config/configSchema.js';

/** The one mapping from the YAML config onto the engine's knobs. */
export function engineConfigFromConfig(config: Config): EngineConfig {
  const { engine, risk } = config;
  return withEngineDefaults({
    preTrade: { defaultMaxSlippageBps: engine.max_slippage_bps },
    guards: {
      maxOrderNotional: risk.max_order_notional,
      maxPositionNotional: risk.max_position_per_market,
      maxOpenOrders: risk.max_open_orders,
      actionsPerSecond: risk.max_actions_per_second,
      actionBurst: risk.max_actions_per_second,
      killSwitchMaxLoss: risk.kill_switch.max_loss,
    },
    nonces: { slot: engine.nonce_slot.k, slots: engine.nonce_slot.n },
    retry: {
      accountNotRegisteredMaxAttempts: engine.registration_retry.attempts,
      accountNotRegisteredBaseDelayMs: engine.registration_retry.base_ms,
    },
  });
}

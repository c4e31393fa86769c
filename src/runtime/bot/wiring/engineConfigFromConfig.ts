import { withEngineDefaults, type EngineConfig } from '../../../engine/config/engineConfig.js';
import { guardLimitsOf } from '../../../engine/guards/riskLimits.js';
import type { Config } from '../../config/configSchema.js';

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

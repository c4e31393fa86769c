export { ConfigError, formatConfigPath, type ConfigProblem } from './configError.js';
export { configErrorFromZod, type ConfigErrorContext } from './configErrorFromZod.js';
export {
  configSchema,
  SELECTOR_NAMES,
  VENUE_PROFILES,
  type Config,
  type LoggingConfig,
  type RiskLimits,
  type StrategyConfig,
  type VenueConfig,
  type VenueProfile,
} from './configSchema.js';
export { effectiveRisk } from './effectiveRisk.js';
export { loadConfig, MAINNET_ACK_ENV, REST_URL_ENV, WS_URL_ENV, type LoadConfigOptions } from './loadConfig.js';
export { parseStrategyParams } from './parseStrategyParams.js';
export { isSecretFieldName, refuseSecrets, secretShape } from './refuseSecrets.js';
export { substituteEnv, type Env } from './substituteEnv.js';

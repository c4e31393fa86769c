export { Engine, type EngineOptions } from './engine.js';
export { withEngineDefaults } from './config/engineConfig.js';
export { dryRunSender, venueSender } from './sending/actionSender.js';
export { JwtSession } from './sending/jwtSession.js';
export { FeedLostError } from './connection/feedLostError.js';
export {
  adjustIsolatedMargin,
  cancel,
  cancelAll,
  closePosition,
  placeLimit,
  placeMarket,
  setLeverage,
  setMarginMode,
} from './intents/intentBuilders.js';
export { type Intent } from './intents/intents.js';
export { type IntentOutcome } from './intents/intentOutcome.js';
export { type Refusal } from './intents/refusal.js';

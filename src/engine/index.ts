export { Engine, type EngineOptions } from './engine.js';
export { withEngineDefaults } from './engineConfig.js';
export { dryRunSender, venueSender } from './actionSender.js';
export { JwtSession } from './jwtSession.js';
export { FeedLostError } from './feedLostError.js';
export {
  adjustIsolatedMargin,
  cancel,
  cancelAll,
  closePosition,
  placeLimit,
  placeMarket,
  setLeverage,
  setMarginMode,
} from './intentBuilders.js';
export { type Intent } from './intents.js';
export { type IntentOutcome } from './intentOutcome.js';
export { type Rejection } from './rejection.js';

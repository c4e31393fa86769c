export { Engine, type EngineFeeds, type EngineOptions } from './engine.js';
export {
  DEFAULT_ENGINE_CONFIG,
  withEngineDefaults,
  type EngineConfig,
  type EngineConfigInput,
  type GuardConfig,
  type NonceConfig,
  type PreTradeConfig,
  type RetryConfig,
} from './engineConfig.js';
export { dryRunSender, venueSender, type ActionSender, type BearerSource, type DryRunLogger, type SendReceipt } from './actionSender.js';
export { NO_JOURNAL, journalBody, type EngineJournal } from './engineJournal.js';
export { JwtSession, type JwtSessionOptions } from './jwtSession.js';
export { IntentFailedError, type ExecutorLogger } from './executor.js';
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
export {
  isPlaceIntent,
  isRiskReducing,
  oppositeSide,
  type AdjustIsolatedMarginIntent,
  type CancelAllIntent,
  type CancelIntent,
  type ClosePositionIntent,
  type Intent,
  type IntentKind,
  type MarginMode,
  type MarginModePolicy,
  type MarketTimeInForce,
  type PlaceIntent,
  type PlaceLimitIntent,
  type PlaceMarketIntent,
  type SetLeverageIntent,
  type SetMarginModeIntent,
  type Side,
  type StpMode,
  type TimeInForce,
} from './intents.js';
export {
  isTerminalOutcome,
  type AcceptedOutcome,
  type DryRunOutcome,
  type FailedOutcome,
  type IntentOutcome,
  type RefusedOutcome,
  type UnknownOutcome,
} from './intentOutcome.js';
export { IntentRejectedError, rejection, type Rejection, type RejectionRule } from './rejection.js';
export { NonceAllocator, type NonceAllocatorOptions, type NonceAllocatorStatus, type NonceFate } from './nonceAllocator.js';
export { NonceAllocatorRegistry } from './nonceAllocatorRegistry.js';
export {
  MAX_NONCE_BIT,
  NONCE_BITS_PER_ANCHOR,
  compareNoncePairs,
  decodeNoncePair,
  encodeNoncePair,
  noncePairKey,
  parseNonceState,
  type NoncePair,
  type NonceState,
} from './noncePair.js';
export {
  OrderTracker,
  restingIdFromOrderId,
  type OrderState,
  type TrackedFill,
  type TrackedOrder,
  type TrackedPosition,
} from './orderTracker.js';
export {
  classifyFailure,
  classifyLanding,
  MAX_LANDING_RESIGNS,
  type FailureContext,
  type LandingAction,
  type LandingDecision,
  type RetryAction,
  type RetryDecision,
} from './retryPolicy.js';
export { readLandingEvidence, type LandingEvidence, type LandingReader } from './landingEvidence.js';
export type { SignedRequest, Endpoint } from './signedRequest.js';
export { preTradeChecks, type PreTradeVerdict } from './preTradeChecks.js';
export { isMarketTradable, type MarketView } from './marketView.js';
export type { AccountState, PositionView } from './accountState.js';

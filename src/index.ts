/**
 * perpbot's public API, layer by layer. Strategy plugins import `src/strategy/index.ts`; programs
 * embedding perpbot (their own runtime, tools, tests against the simulator) import from here.
 */
export {
  PerpbotError,
  InvalidValueError,
  ManualClock,
  systemClock,
  withRetry,
  exponentialBackoff,
  addDecimals,
  compareDecimals,
  countUnits,
  decimalToFixed,
  fixedToDecimal,
  multiplyDecimals,
  negateDecimal,
  normalizeDecimal,
  weiToDecimal,
  type Clock,
  type Rounding,
} from './core/index.js';
export {
  createSigningContext,
  parseDomain,
  signPermit,
  signTypedStruct,
  recoverTypedStructSigner,
  fastPrivateKeySigner,
  privateKeySigner,
  packOrderWord,
  unpackOrderWord,
  placeOrderHash,
  cancelOrderHash,
  cancelAllOrdersHash,
  sizeToSteps,
  priceToTicks,
  SPEC_SELECTORS,
  RISE_SELECTORS,
  type DigestSigner,
  type PermitWire,
  type SelectorTable,
  type SigningContext,
} from './protocol/index.js';
export {
  createRestClient,
  TpslClient,
  type TpslClientOptions,
  type TpslOrderRequest,
  VenueError,
  VenueTransportError,
  VenueWsClient,
  OrderBookFeed,
  type RestClient,
  type VenueErrorKind,
} from './venue/index.js';
export {
  Engine,
  withEngineDefaults,
  venueSender,
  dryRunSender,
  JwtSession,
  FeedLostError,
  placeLimit,
  placeMarket,
  cancel,
  cancelAll,
  closePosition,
  setLeverage,
  setMarginMode,
  adjustIsolatedMargin,
  type EngineOptions,
  type Intent,
  type IntentOutcome,
  type Refusal,
} from './engine/index.js';
export { defineStrategy, StrategyHost } from './strategy/index.js';
export type { StrategyContext, StrategyDefinition } from './strategy/index.js';
export { loadConfig, ConfigError, type Config } from './runtime/config/index.js';
export { createLogger } from './runtime/operations/logging/index.js';
export { runBot, type RunBotOptions } from './runtime/bot/runBot.js';
// Recordings of `perpbot record`, streamed back in order (for a replay or an analysis of one's own).
export { readRecording, readSegment } from './runtime/recording/readRecording.js';
export type {
  ConnectedRecord,
  FrameRecord,
  GapRecord,
  HeaderRecord,
  RecordingRecord,
} from './runtime/recording/recordingRecords.js';
export { startSim, type RunningSim } from './sim/index.js';

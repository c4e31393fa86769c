/** The entry point strategy plugins import. */
export { defineStrategy, isStrategyDefinition, type StrategyDefinition } from './strategyDefinition.js';
export type { StrategyContext, StrategyLogger, StrategyStorage, StrategyStreams } from './strategyContext.js';
export type { IntentFactory } from './intentFactory.js';
export type {
  BookLevel,
  BookView,
  FillView,
  MarkPrice,
  MarketView,
  OpenOrderSnapshot,
  PositionSnapshot,
  StateSnapshot,
} from './strategyViews.js';
export { offsetByBps, changeBps, mid, isAbove, isBelow, absDecimal, negateDecimal } from './priceMath.js';
export type { Intent, Side } from '../engine/intents.js';
export type { IntentOutcome } from '../engine/intentOutcome.js';
export { compareDecimals, multiplyDecimals, normalizeDecimal } from '../core/decimal.js';
export { StrategyHost, type ExecutionPort, type HostedStrategy } from './strategyHost.js';

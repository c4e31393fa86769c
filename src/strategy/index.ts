/**
 * The entry point strategy plugins import (`perpbot/strategy`): the contract, the views, and every
 * helper a strategy needs, so nothing else of perpbot has to be imported.
 */
export {
  defineStrategy,
  isStrategyDefinition,
  FRESHNESS_CHANNELS,
  type FinalIntents,
  type FreshnessBudget,
  type FreshnessChannel,
  type StrategyDefinition,
} from './strategyDefinition.js';
export type {
  ContextStreams,
  StrategyContext,
  StrategyLogger,
  StrategyPnl,
  StrategyStorage,
  StrategyStreams,
} from './strategyContext.js';
export type { IntentFactory } from './intentFactory.js';
export { strategyClock, type StrategyClock } from './strategyClock.js';
export type {
  BookLevel,
  BookView,
  Candle,
  FillView,
  FundingView,
  MarkPrice,
  MarketView,
  OpenOrderSnapshot,
  OpenOrderState,
  PnlView,
  PositionSnapshot,
  StateSnapshot,
  TopOfBook,
  TradeView,
  TradingStateView,
} from './strategyViews.js';
export type {
  OrderCancelledEvent,
  OrderEvent,
  OrderEventType,
  OrderExpiredEvent,
  OrderFilledEvent,
  OrderPartiallyFilledEvent,
  OrderPlacedEvent,
  OrderQueuedEvent,
  OrderRefusedEvent,
  OrderSubmittedEvent,
  OrderUnknownEvent,
  TerminalOrderEvent,
} from './orderEvents.js';
export { isTerminalOrderEvent } from './orderEvents.js';
export {
  isAccepted,
  isRefused,
  isFailed,
  isUnknown,
  isDryRun,
  isNotDone,
  isPlaced,
  isPartiallyFilled,
  isFilled,
  isCancelled,
  isExpired,
  isFillEvent,
  forIntent,
} from './typeGuards.js';
// Prices and basis points.
export {
  offsetByBps,
  changeBps,
  applyBps,
  bpsOf,
  spreadBps,
  mid,
  isAbove,
  isBelow,
  absDecimal,
  negateDecimal,
} from './priceMath.js';
// Exact decimals: add, subtract, multiply exactly; divide to named places with a named rounding.
export {
  subtractDecimals,
  divideDecimals,
  minDecimal,
  maxDecimal,
  isZero,
  isPositive,
  isNegative,
} from './decimalMath.js';
export {
  addDecimals,
  compareDecimals,
  countUnits,
  decimalToFixed,
  fixedToDecimal,
  isDecimalString,
  multiplyDecimals,
  multiplyUnits,
  normalizeDecimal,
  parseDecimal,
  pow10,
  type FixedPoint,
  type Rounding,
} from '../core/decimal.js';
// The market's grid: ticks, steps, minimum size.
export { roundToTick, roundToStep, clampToMinSize, meetsMinSize, tradableSize, marketGrid } from './marketGridMath.js';
// Market data from the streams.
export { topOfBookOf, toTopOfBook, candlesFrom, type CandleOptions } from './marketData.js';
export { PnlLedger, type PnlFill } from '../engine/ledger/pnlLedger.js';
export type {
  Intent,
  IntentKind,
  PlaceIntent,
  PlaceLimitIntent,
  PlaceMarketIntent,
  CancelIntent,
  CancelAllIntent,
  ClosePositionIntent,
  SetLeverageIntent,
  SetMarginModeIntent,
  AdjustIsolatedMarginIntent,
  ReplaceIntent,
  ReplaceMode,
  QuoteIntent,
  QuoteOrder,
  QuoteTolerance,
  ProtectIntent,
  BracketIntent,
  ProtectionFields,
  ProtectionTrigger,
  Side,
  TimeInForce,
} from '../engine/intents/intents.js';
export type {
  AcceptedOutcome,
  DryRunOutcome,
  FailedOutcome,
  IntentOutcome,
  RefusedOutcome,
  UnknownOutcome,
} from '../engine/intents/intentOutcome.js';
export type { Refusal, RefusalRule } from '../engine/intents/refusal.js';
export {
  StrategyHost,
  type ExecutionPort,
  type HostedStrategy,
  type StrategyHostOptions,
  type StrategyStatus,
} from './strategyHost.js';

export { Exchange, type ExchangeOptions, type SyntheticMakersConfig } from './exchange.js';
export type { ActionResult, CancelAllResult, PlaceOrderResult } from './exchangeResults.js';
export type { ExchangeEvent, ExchangeEventType } from './exchangeEvents.js';
export type {
  BalanceRecord,
  BookLevel,
  BookSnapshot,
  FillRecord,
  MarketRecord,
  OraclePriceRecord,
  OrderHistoryRecord,
  OrderRecord,
  OrderStatus,
  PlaceOrderParams,
  PositionRecord,
  TradeRecord,
} from './exchangeRecords.js';
export {
  ExchangeRejection,
  formatErrorText,
  invalidArgument,
  isExchangeRejection,
  revertReason,
  reverted,
  type ExchangeAction,
  type GrpcStatusName,
} from './exchangeRejection.js';
export { DEFAULT_MARKETS, type MarketDefinition } from './markets.js';
export { bookDiff } from './bookDiff.js';
export { orderIdHex, restingOrderIdOf, wideFromOrderId, wideOrderId } from './orderIds.js';
export { SYNTHETIC_MAKER_ACCOUNTS, SYNTHETIC_TAKER_ACCOUNT } from './syntheticMakers.js';
export { maintenanceMarginWei } from './liquidation.js';
export { AccountHistory, type OrderHistoryFilter, type Page, type PageRequest } from './accountHistory.js';
export type { HistoryStamp } from './historyEntry.js';

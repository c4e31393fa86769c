import type { Address } from '../../core/address.js';
import type {
  BalanceRecord,
  FillRecord,
  OraclePriceRecord,
  OrderRecord,
  PositionRecord,
  TradeRecord,
} from './exchangeRecords.js';

/**
 * Everything a state change produced, in order. The server maps each to a WebSocket frame:
 * order → orders, fill → fills, trade → trades, position → positions, balance → account,
 * book → read `book(market_id)` and send levels with the checksum, oracle → oracle.
 */
export type ExchangeEvent =
  | { readonly type: 'order'; readonly account: Address; readonly market_id: number; readonly order: OrderRecord }
  | { readonly type: 'fill'; readonly account: Address; readonly market_id: number; readonly fill: FillRecord }
  | { readonly type: 'trade'; readonly market_id: number; readonly trade: TradeRecord }
  | {
      readonly type: 'position';
      readonly account: Address;
      readonly market_id: number;
      readonly position: PositionRecord;
    }
  | { readonly type: 'balance'; readonly account: Address; readonly balance: BalanceRecord }
  | { readonly type: 'book'; readonly market_id: number }
  | {
      readonly type: 'oracle';
      readonly block_number: number;
      readonly timestamp_ms: number;
      /** Keyed by market id as a string, like `data.prices` of the oracle channel. */
      readonly prices: Readonly<Record<string, OraclePriceRecord>>;
    };

import type {
  AccountWireFrame,
  FillsWireFrame,
  OrdersWireFrame,
  PositionsWireFrame,
} from '../../venue/schemas/wsFramesPrivate.js';
import type { OracleWireFrame } from '../../venue/schemas/wsFramesOracle.js';
import type { CanonicalTradesFrame } from '../../venue/schemas/wsWireCanonical.js';
import type {
  BalanceRecord,
  FillRecord,
  OraclePriceRecord,
  OrderRecord,
  PositionRecord,
  TradeRecord,
} from '../exchange/exchangeRecords.js';
import type { FrameMeta } from './frameMeta.js';

/**
 * Channel frames built from the exchange's records, which are already in the venue's wire
 * vocabulary; these functions only add the envelope. The wire types come from the client's
 * schemas, and a test parses every frame the server sends with them.
 */

/**
 * oracle, exactly per the spec: `market_id` null, one frame per block for every subscribed
 * market, prices as integer wei strings, `data.timestamp` in seconds.
 */
export function oracleFrame(
  prices: Readonly<Record<string, OraclePriceRecord>>,
  block: { readonly blockNumber: number; readonly timestampMs: number; readonly txHash: string },
  workerTimestamp: string,
): OracleWireFrame {
  return {
    channel: 'oracle',
    type: 'update',
    market_id: null,
    data: { prices: { ...prices }, timestamp: Math.floor(block.timestampMs / 1000) },
    tx_hash: block.txHash,
    block_number: block.blockNumber,
    log_index: 0,
    worker_timestamp: workerTimestamp,
  };
}

/**
 * trades as the venue sends them (venue-wire.md §3, trades update): the market id at the
 * envelope only, `maker_side` a number, and `fee_liquidation` ("0": the simulator's trades are
 * never liquidations).
 */
export function tradesFrame(trade: TradeRecord, meta: FrameMeta): CanonicalTradesFrame {
  return {
    channel: 'trades',
    type: 'update',
    market_id: String(trade.market_id),
    data: {
      id: trade.id,
      maker_order_id: trade.maker_order_id,
      taker_order_id: trade.taker_order_id,
      maker: trade.maker,
      taker: trade.taker,
      maker_side: trade.maker_side,
      price: trade.price,
      size: trade.size,
      fee_maker: trade.fee_maker,
      fee_taker: trade.fee_taker,
      fee_liquidation: '0',
    },
    ...meta,
  };
}

export function ordersFrame(
  type: 'snapshot' | 'update',
  orders: readonly OrderRecord[],
  meta: FrameMeta,
): OrdersWireFrame {
  return { channel: 'orders', type, data: orders.map((order) => ({ ...order })), ...meta };
}

export function positionsFrame(
  type: 'snapshot' | 'update',
  positions: readonly PositionRecord[],
  meta: FrameMeta,
): PositionsWireFrame {
  return { channel: 'positions', type, data: positions.map(positionWire), ...meta };
}

/** A flat position carries empty strings for its prices (venue-facts); on the wire they are left out. */
function positionWire(position: PositionRecord): PositionsWireFrame['data'][number] {
  return Object.fromEntries(
    Object.entries(position).filter(([, value]) => value !== ''),
  ) as PositionsWireFrame['data'][number];
}

export function fillsFrame(fill: FillRecord, meta: FrameMeta): FillsWireFrame {
  return { channel: 'fills', type: 'update', data: { ...fill }, ...meta };
}

/** The account channel's payload is unknown on the venue; chosen: the balance record. */
export function accountFrame(type: 'snapshot' | 'update', balance: BalanceRecord, meta: FrameMeta): AccountWireFrame {
  return { channel: 'account', type, data: { ...balance }, ...meta };
}

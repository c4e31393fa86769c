import { decimalToWei, divideRounded, multiplyUnits, weiToDecimal } from '../../core/decimal.js';
import type { FillRecord, OrderHistoryRecord, OrderRecord } from './exchangeRecords.js';
import type { MarketSpec } from './markets.js';

/** Where and when an order was placed: the transaction that mined it. */
export interface HistoryStamp {
  readonly blockNumber: number;
  readonly timestampMs: number;
  readonly txHash: string;
}

/**
 * The history's own view of one order: its latest record (from the order events) plus what the
 * events alone do not carry, the placing transaction and the running fill sums for `avg_price`.
 */
export interface HistoryEntry {
  order: OrderRecord;
  readonly createdAtNs: string;
  readonly blockNumber: number;
  readonly logIndex: number;
  readonly txHash: string;
  readonly feeBps: number;
  /** Σ price × size over the order's fills, both in wei (so the sum is in wei²). */
  notionalWeiSquared: bigint;
  /** Σ size over the order's fills, in wei of the size unit. */
  filledWei: bigint;
}

export function newHistoryEntry(
  order: OrderRecord,
  stamp: HistoryStamp,
  logIndex: number,
  feeBps: number,
): HistoryEntry {
  return {
    order,
    createdAtNs: (BigInt(stamp.timestampMs) * 1_000_000n).toString(),
    blockNumber: stamp.blockNumber,
    logIndex,
    txHash: stamp.txHash,
    feeBps,
    notionalWeiSquared: 0n,
    filledWei: 0n,
  };
}

export function applyFill(entry: HistoryEntry, fill: FillRecord): void {
  const sizeWei = decimalToWei(fill.size, 'fill size');
  entry.notionalWeiSquared += decimalToWei(fill.price, 'fill price') * sizeWei;
  entry.filledWei += sizeWei;
}

const TIME_IN_FORCE = ['GTC', 'GTT', 'FOK', 'IOC'] as const;

/** The wire record; `market` is the order's market (for the step and tick sizes). */
export function toOrderHistoryRecord(entry: HistoryEntry, market: MarketSpec): OrderHistoryRecord {
  const { order } = entry;
  const config = market.definition.config;
  // Same rounding as a position's average entry: half away from zero at 18 decimals.
  const avgWei = entry.filledWei === 0n ? 0n : divideRounded(entry.notionalWeiSquared, entry.filledWei, 'nearest');
  return {
    id: order.order_id,
    market_id: order.market_id,
    sender: order.account,
    side: order.side === 0 ? 'BUY' : 'SELL',
    type: order.order_type === 1 ? 'LIMIT' : 'MARKET',
    time_in_force: TIME_IN_FORCE[order.time_in_force],
    status: order.status,
    price: multiplyUnits(BigInt(order.price_ticks), config.step_price, 'step_price'),
    size: multiplyUnits(BigInt(order.size_steps), config.step_size, 'step_size'),
    filled_size: order.filled_size,
    avg_price: weiToDecimal(avgWei),
    post_only: order.post_only,
    reduce_only: order.reduce_only,
    resting_order_id: order.resting_order_id,
    wide_order_id: order.wide_order_id,
    ...(order.client_order_id === undefined ? {} : { client_order_id: order.client_order_id }),
    created_at: entry.createdAtNs,
    block_number: entry.blockNumber,
    log_index: entry.logIndex,
    tx_hash: entry.txHash,
    fee_bps: entry.feeBps,
    stop_price: '0',
    cancel_requested: false,
  };
}

import type { Address } from '../../core/address.js';
import { multiplyUnits } from '../../core/decimal.js';
import type { OrderRecord, OrderStatus } from './exchangeRecords.js';
import type { MarketSpec } from './markets.js';

/** The exchange's own, mutable view of an order; never handed out (records are). */
export interface SimOrder {
  readonly sequence: bigint;
  readonly wide: bigint;
  readonly orderId: string;
  readonly account: Address;
  readonly marketId: number;
  readonly side: 0 | 1;
  /** May be clipped below the requested size for reduce-only orders. */
  sizeSteps: number;
  readonly priceTicks: number;
  readonly orderType: 0 | 1;
  readonly timeInForce: 0 | 1 | 2 | 3;
  readonly postOnly: boolean;
  readonly reduceOnly: boolean;
  readonly stpMode: 0 | 1 | 2;
  readonly clientOrderId?: bigint;
  readonly expiresAtMs?: number;
  filledSteps: number;
  status: OrderStatus;
}

export function remainingSteps(order: SimOrder): number {
  return order.sizeSteps - order.filledSteps;
}

export function toOrderRecord(order: SimOrder, market: MarketSpec): OrderRecord {
  const stepSize = market.definition.config.step_size;
  return {
    order_id: order.orderId,
    market_id: order.marketId,
    account: order.account,
    wide_order_id: order.wide.toString(),
    resting_order_id: order.sequence.toString(),
    side: order.side,
    size_steps: order.sizeSteps,
    price_ticks: order.priceTicks,
    order_type: order.orderType,
    time_in_force: order.timeInForce,
    post_only: order.postOnly,
    reduce_only: order.reduceOnly,
    stp_mode: order.stpMode,
    ...(order.clientOrderId === undefined ? {} : { client_order_id: order.clientOrderId.toString() }),
    status: order.status,
    filled_size: multiplyUnits(BigInt(order.filledSteps), stepSize, 'step_size'),
    filled_steps: order.filledSteps,
    ...(order.expiresAtMs === undefined ? {} : { expires_at_ms: order.expiresAtMs }),
  };
}

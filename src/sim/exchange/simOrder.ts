import type { Address } from '../../core/address.js';
import { multiplyUnits } from '../../core/decimal.js';
import type { OrderRecord, OrderStatus } from './exchangeRecords.js';
import type { MarketSpec } from './markets.js';
import { orderIdHex } from './orderIds.js';
import type { CheckedOrder } from './placeOrderChecks.js';

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

/**
 * A new order's state. Its hex `order_id` is worked out when first read: a replay rests every
 * recorded book level as an order whose id nothing ever reads (1.4 % of a replay's CPU went to
 * ids made up front); when read, it is the same id.
 */
class ExchangeOrder implements SimOrder {
  readonly orderType: 0 | 1;
  readonly timeInForce: 0 | 1 | 2 | 3;
  readonly postOnly: boolean;
  readonly reduceOnly: boolean;
  readonly stpMode: 0 | 1 | 2;
  readonly clientOrderId?: bigint;
  readonly expiresAtMs?: number;
  filledSteps = 0;
  status: OrderStatus = 'ORDER_STATUS_OPEN';
  private hex: string | undefined;

  constructor(
    readonly sequence: bigint,
    readonly wide: bigint,
    readonly account: Address,
    readonly marketId: number,
    readonly side: 0 | 1,
    public sizeSteps: number,
    readonly priceTicks: number,
    checked: CheckedOrder,
    nowMs: number,
  ) {
    this.orderType = checked.orderType;
    this.timeInForce = checked.timeInForce;
    this.postOnly = checked.postOnly;
    this.reduceOnly = checked.reduceOnly;
    this.stpMode = checked.stpMode;
    if (checked.clientOrderId !== undefined) this.clientOrderId = checked.clientOrderId;
    if (checked.ttlSeconds !== undefined) this.expiresAtMs = nowMs + checked.ttlSeconds * 1000;
  }

  get orderId(): string {
    return (this.hex ??= orderIdHex(this.wide));
  }
}

/** An open order of `checked`, `sizeSteps` (a reduce-only one's may be clipped), numbered `sequence`. */
export function newSimOrder(
  sequence: bigint,
  wide: bigint,
  account: Address,
  checked: CheckedOrder,
  sizeSteps: number,
  nowMs: number,
): SimOrder {
  return new ExchangeOrder(
    sequence,
    wide,
    account,
    checked.marketId,
    checked.side,
    sizeSteps,
    checked.priceTicks,
    checked,
    nowMs,
  );
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

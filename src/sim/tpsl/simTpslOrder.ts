import type { Address } from '../../core/address.js';
import type { TpslOrderWire } from '../../venue/schemas/restTpslCanonical.js';
import type {
  StopPriceOptionName,
  StopTypeName,
  TpslOrderTypeName,
  TpslSide,
  TpslStatus,
  TpslTif,
} from '../../venue/schemas/tpslNames.js';

/** What a place request fixes about a TP/SL order (after the venue's checks). */
export interface NewTpslOrder {
  readonly account: Address;
  readonly marketId: number;
  readonly side: TpslSide;
  /** Canonical decimal; "0" with a position share. */
  readonly size: string;
  /** 1..10000: a share of the position at execution; 0 when `size` says it. */
  readonly sizePercentBps: number;
  readonly stopType: StopTypeName;
  readonly orderType: TpslOrderTypeName;
  readonly stopPrice: string;
  /** The stop price in wei, what the trigger compares. */
  readonly stopPriceWei: bigint;
  /** Canonical decimal; "0" for a market execution. */
  readonly limitPrice: string;
  /** The limit price on the market's tick grid; 0 for a market execution. */
  readonly limitTicks: number;
  readonly stopPriceOption: StopPriceOptionName;
  readonly tif: TpslTif;
  readonly createdAtMs: number;
}

/**
 * One TP/SL order the simulator keeps: ACCEPTED → TRIGGERED → SUCCESS, or → CANCELLED
 * (venue-tpsl.md "The TpslOrder record"). Mutable only through `TpslBook`.
 */
export interface SimTpslOrder extends NewTpslOrder {
  readonly orderId: string;
  status: TpslStatus;
  triggeredAtMs?: number;
  /** The watched price that fired it, decimal. */
  triggeredPrice?: string;
  /** The block whose price fired it. */
  triggerTxHash?: string;
  /** Time from which it may execute: the trigger plus the simulator's lag. */
  dueAtMs?: number;
  /** The execution's transaction (its order's `tx_hash` in order history). */
  triggeredTxHash?: string;
  filledSize: string;
  /** Why the last attempt to execute did not (budget spent or expired, nothing to reduce). */
  refusal?: string;
}

const NS_PER_MS = 1_000_000n;

function nanos(ms: number | undefined): string {
  return ms === undefined ? '0' : (BigInt(ms) * NS_PER_MS).toString();
}

/** The record as GET /v1/orders/tpsl sends it (FB model; `restTpslCanonical.ts`). */
export function tpslOrderWire(order: SimTpslOrder): TpslOrderWire {
  return {
    order_id: order.orderId,
    account: order.account,
    market_id: String(order.marketId),
    side: order.side,
    size: order.size,
    stop_type: order.stopType,
    order_type: order.orderType,
    stop_price: order.stopPrice,
    limit_price: order.limitPrice,
    stop_price_option: order.stopPriceOption,
    status: order.status,
    tif: order.tif,
    created_at: nanos(order.createdAtMs),
    expires_at: '0',
    triggered_at: nanos(order.triggeredAtMs),
    triggered_price: order.triggeredPrice ?? '',
    trigger_tx_hash: order.triggerTxHash ?? '',
    triggered_tx_hash: order.triggeredTxHash ?? '',
    size_percent_bps: order.sizePercentBps,
    filled_size: order.filledSize,
  };
}

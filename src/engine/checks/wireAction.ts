import {
  MarginMode as MarginModeCode,
  OrderType,
  Side as SideCode,
  StpMode as StpModeCode,
  TimeInForce as TimeInForceCode,
} from '../../protocol/enums.js';
import type { MarginMode, Side, StpMode, TimeInForce } from '../intents/intents.js';

/**
 * Wire-level values of a checked intent, exactly as the REST bodies and the signed words carry
 * them (field names are the spec's). Every integer here has been range-checked; the protocol
 * layer packs and signs them without further judgement.
 */

/** Intent vocabulary to the protocol's enumerations (spec "Order enumerations"). */
export const SIDE_CODE = { buy: SideCode.Buy, sell: SideCode.Sell } as const satisfies Record<Side, number>;
export const ORDER_TYPE_CODE = { market: OrderType.Market, limit: OrderType.Limit } as const;
export const TIME_IN_FORCE_CODE = {
  GTC: TimeInForceCode.GTC,
  GTT: TimeInForceCode.GTT,
  FOK: TimeInForceCode.FOK,
  IOC: TimeInForceCode.IOC,
} as const satisfies Record<TimeInForce, number>;
export const STP_MODE_CODE = {
  expire_maker: StpModeCode.ExpireMaker,
  expire_taker: StpModeCode.ExpireTaker,
  expire_both: StpModeCode.ExpireBoth,
} as const satisfies Record<StpMode, number>;
export const MARGIN_MODE_CODE = {
  cross: MarginModeCode.Cross,
  isolated: MarginModeCode.Isolated,
} as const satisfies Record<MarginMode, number>;

export interface WireOrder {
  /** uint16 */
  readonly market_id: number;
  /** uint32, at least 1 */
  readonly size_steps: number;
  /** uint24, at least 1; for market orders the slippage bound */
  readonly price_ticks: number;
  readonly side: SideCode;
  readonly post_only: boolean;
  readonly reduce_only: boolean;
  readonly stp_mode: StpModeCode;
  readonly order_type: OrderType;
  readonly time_in_force: TimeInForceCode;
  /** uint64, present only when set (1 or more). */
  readonly client_order_id?: bigint;
  /** uint16, present only for GTT orders. */
  readonly ttl_units?: number;
}

export type WireAction =
  | {
      readonly action: 'placeOrder';
      readonly order: WireOrder;
      /** The exact decimal size and price the steps and ticks stand for (after any rounding). */
      readonly size: string;
      readonly price: string;
    }
  | {
      readonly action: 'cancelOrder';
      readonly market_id: number;
      /** The wiring resolves an intent id to the venue order id and its resting_order_id. */
      readonly target: { readonly intentId: string } | { readonly orderId: string };
    }
  | { readonly action: 'cancelAllOrders'; readonly market_id: number }
  /** uint8, 1 to min(255, the market's max_leverage) */
  | { readonly action: 'updateLeverage'; readonly market_id: number; readonly leverage: number }
  | { readonly action: 'updateMarginMode'; readonly market_id: number; readonly margin_mode: MarginModeCode }
  /** int128 fixed-point at `isolatedMarginDecimals` */
  | { readonly action: 'updateIsolatedMargin'; readonly market_id: number; readonly amount: bigint };

/**
 * A checked wire action whose cancel target has been resolved to the venue's ids: the cancel hash
 * commits to `resting_order_id`, while the body carries the `order_id` string.
 */
export type ResolvedAction =
  | Exclude<WireAction, { action: 'cancelOrder' }>
  | {
      readonly action: 'cancelOrder';
      readonly market_id: number;
      readonly order_id: string;
      readonly resting_order_id: bigint;
    };

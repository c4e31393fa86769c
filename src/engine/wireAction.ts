import type { MarginMode, Side, StpMode, TimeInForce } from './intents.js';

/**
 * Wire-level values of a checked intent, exactly as the REST bodies and the signed words carry
 * them (field names are the spec's). Every integer here has been range-checked; the protocol
 * layer packs and signs them without further judgement.
 */

export const SIDE_CODE = { buy: 0, sell: 1 } as const satisfies Record<Side, number>;
export const ORDER_TYPE_CODE = { market: 0, limit: 1 } as const;
export const TIME_IN_FORCE_CODE = { GTC: 0, GTT: 1, FOK: 2, IOC: 3 } as const satisfies Record<TimeInForce, number>;
export const STP_MODE_CODE = { expire_maker: 0, expire_taker: 1, expire_both: 2 } as const satisfies Record<StpMode, number>;
export const MARGIN_MODE_CODE = { cross: 0, isolated: 1 } as const satisfies Record<MarginMode, number>;

export interface WireOrder {
  /** uint16 */
  readonly market_id: number;
  /** uint32, at least 1 */
  readonly size_steps: number;
  /** uint24, at least 1; for market orders the slippage bound */
  readonly price_ticks: number;
  readonly side: 0 | 1;
  readonly post_only: boolean;
  readonly reduce_only: boolean;
  readonly stp_mode: 0 | 1 | 2;
  readonly order_type: 0 | 1;
  readonly time_in_force: 0 | 1 | 2 | 3;
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
  | { readonly action: 'updateMarginMode'; readonly market_id: number; readonly margin_mode: 0 | 1 }
  /** int128 fixed-point at `isolatedMarginDecimals` */
  | { readonly action: 'updateIsolatedMargin'; readonly market_id: number; readonly amount: bigint };

import type { Address } from '../../core/address.js';
import type { PlaceOrderWireFields } from '../../protocol/placeOrderFieldsHash.js';

/**
 * What the exchange core hands the server: records already in the venue's wire vocabulary
 * (snake_case, decimal strings for amounts, integer strings for wide ids), so the server only
 * wraps them in envelopes. Shapes follow venue-facts; see docs/spec-gaps/simulator.md ("Simulator exchange core").
 */

/**
 * Place params as decoded from the wire (POST /v1/orders/place), before any venue rule: a parsed
 * place body is one as it is (an optional it leaves undefined is absent). The fields an order's
 * action hash commits to, but the builder's, which the simulator's place body does not carry.
 */
export type PlaceOrderParams = Omit<PlaceOrderWireFields, 'builder_id' | 'builder_fee_bps'>;

export type OrderStatus = 'ORDER_STATUS_OPEN' | 'ORDER_STATUS_FILLED' | 'ORDER_STATUS_CANCELLED';

/** The venue-facts open-order record plus status and fill progress. */
export interface OrderRecord {
  readonly order_id: string;
  readonly market_id: number;
  readonly account: Address;
  readonly wide_order_id: string;
  readonly resting_order_id: string;
  readonly side: 0 | 1;
  readonly size_steps: number;
  readonly price_ticks: number;
  readonly order_type: 0 | 1;
  readonly time_in_force: 0 | 1 | 2 | 3;
  readonly post_only: boolean;
  readonly reduce_only: boolean;
  readonly stp_mode: 0 | 1 | 2;
  readonly client_order_id?: string;
  readonly status: OrderStatus;
  /** Filled size as a decimal (size units, not steps). */
  readonly filled_size: string;
  readonly filled_steps: number;
  /** GTT expiry in unix milliseconds. */
  readonly expires_at_ms?: number;
}

/** One fill as the fills channel carries it (one per account per trade). */
export interface FillRecord {
  readonly id: string;
  readonly market_id: number;
  readonly account: Address;
  readonly order_id: string;
  readonly side: 0 | 1;
  readonly price: string;
  readonly size: string;
  /** Fee paid, decimal USDC (negative would be a rebate). */
  readonly fee: string;
  /** Nanoseconds since the epoch, as an integer string. */
  readonly time: string;
  readonly liquidity_indicator: 'MAKER' | 'TAKER';
  readonly client_order_id?: string;
  /** PnL realised by this fill, before fees. */
  readonly realized_pnl: string;
}

/**
 * One order as the history reads serve it (GET /v1/orders, GET /v1/orders/by-id/{order_id}):
 * the venue-facts history record. Prices and sizes are decimal strings; `created_at` is
 * nanoseconds as an integer string; block, log index and tx hash are those of the placing
 * transaction. See docs/spec-gaps/venue.md ("History reads").
 */
export interface OrderHistoryRecord {
  readonly id: string;
  readonly market_id: number;
  readonly sender: Address;
  readonly side: 'BUY' | 'SELL';
  readonly type: 'LIMIT' | 'MARKET';
  readonly time_in_force: 'GTC' | 'GTT' | 'FOK' | 'IOC';
  readonly status: OrderStatus;
  /** Limit price; for a market order, its slippage bound. */
  readonly price: string;
  readonly size: string;
  readonly filled_size: string;
  /** Size-weighted average fill price rounded half away from zero at 18 decimals; "0" before any fill. */
  readonly avg_price: string;
  readonly post_only: boolean;
  readonly reduce_only: boolean;
  readonly resting_order_id: string;
  readonly wide_order_id: string;
  readonly client_order_id?: string;
  readonly created_at: string;
  readonly block_number: number;
  readonly log_index: number;
  readonly tx_hash: string;
  readonly fee_bps: number;
  /** No stop orders in the simulator: always "0". */
  readonly stop_price: string;
  /** Cancels are atomic in the simulator: always false. */
  readonly cancel_requested: boolean;
}

/** A public trade (trades channel); prices and sizes are decimal strings. */
export interface TradeRecord {
  readonly id: string;
  readonly market_id: number;
  readonly maker_order_id: string;
  readonly taker_order_id: string;
  readonly maker: Address;
  readonly taker: Address;
  readonly maker_side: 0 | 1;
  readonly price: string;
  readonly size: string;
  readonly fee_maker: string;
  readonly fee_taker: string;
  readonly time: string;
}

/**
 * A position (venue-facts GET /v1/account/position and the positions channel). `size` is the
 * absolute size, decimal; `side` is absent when flat (size "0").
 */
export interface PositionRecord {
  readonly account: Address;
  readonly market_id: number;
  readonly size: string;
  readonly side?: 'BUY' | 'SELL';
  /** Signed size in steps; negative is short. */
  readonly size_steps: string;
  readonly margin_mode: 0 | 1;
  readonly isolated_usdc_balance: string;
  readonly leverage: string;
  readonly avg_entry_price: string;
  readonly mark_price: string;
  readonly unrealized_pnl: string;
  readonly realized_pnl: string;
  /** Mark at which the position would be liquidated (others held still); "" when flat or liquidation is off. */
  readonly liquidation_price: string;
}

/** An aggregated book level; `price`/`quantity` are decimal strings. */
export interface BookLevel {
  readonly price: string;
  readonly quantity: string;
  readonly order_count: number;
}

export interface BookSnapshot {
  readonly market_id: number;
  /** Best (highest) first. */
  readonly bids: readonly BookLevel[];
  /** Best (lowest) first. */
  readonly asks: readonly BookLevel[];
}

/** Mark and index as integer wei strings, exactly what the oracle channel carries. */
export interface OraclePriceRecord {
  readonly mark_price: string;
  readonly index_price: string;
}

/** The account's money (the account channel and GET /v1/account/cross-margin-balance). */
export interface BalanceRecord {
  readonly account: Address;
  /** Cross-margin collateral, decimal USDC; may be negative after losses. */
  readonly balance: string;
  /** balance plus unrealised PnL of cross positions. */
  readonly equity: string;
  /** What new cross orders or isolated top-ups can still use. */
  readonly free_collateral: string;
}

/** A market as GET /v1/markets shows it (venue-facts extras included); prices are decimals. */
export interface MarketRecord {
  readonly market_id: string;
  readonly display_name: string;
  readonly mark_price: string;
  readonly index_price: string;
  /** Price of the last trade, or the mark before any trade. */
  readonly last_price: string;
  readonly active: boolean;
  readonly post_only: boolean;
  readonly reduce_only: boolean;
  readonly config: {
    readonly name: string;
    readonly step_size: string;
    readonly step_price: string;
    readonly min_order_size: string;
    readonly max_leverage: string;
    readonly maintenance_margin_factor: string;
    readonly unlocked: boolean;
  };
}

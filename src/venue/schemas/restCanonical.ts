import { z } from 'zod';
import { isDecimalString } from '../../core/decimal.js';

/**
 * The REST answers exactly as the real venue sends them (venue-wire.md §1-§2): the JSON type of
 * every field, protojson style (64-bit integers as strings, 32-bit integers and int enums as
 * numbers, "" for an absent number). The decoders read more than this (numbers or strings, old
 * names); these schemas hold the simulator to the one shape: its route answers are typed against
 * them, and the tests validate the captured samples and every simulator answer with them.
 */

const dec = z.string().refine(isDecimalString, { error: 'expected a decimal string' });
/** A decimal string, or "" for none. */
const decOrEmpty = z.union([z.literal(''), dec]);
/** A 64-bit integer: a JSON string of digits. */
const int64 = z.string().regex(/^-?\d+$/, { error: 'expected a 64-bit integer as a JSON string' });
/** A 32-bit integer or an int enum: a JSON number. */
const int32 = z.number().int({ error: 'expected a 32-bit integer as a JSON number' });
const binary = z.union([z.literal(0), z.literal(1)]);
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, { error: 'expected a 0x address' });

export const canonicalEip712DomainSchema = z.strictObject({
  name: z.string(),
  version: z.string(),
  chain_id: int64,
  verifying_contract: address,
});

export const canonicalNonceStateSchema = z.strictObject({
  nonce_anchor: int64,
  current_bitmap_index: int32,
  bitmap: z.string(),
});

export const canonicalSessionKeyStatusSchema = z.strictObject({ status: int32, status_description: z.string() });

/** Live: 64 hex digits, no 0x (venue-wire.md §2 auth/nonce). */
export const canonicalLoginNonceSchema = z.strictObject({ nonce: z.string().regex(/^[0-9a-f]{64}$/) });
export type LoginNonceWire = z.input<typeof canonicalLoginNonceSchema>;

/** rest-markets.fb.json, field for field: no `visible`, no `available`. */
export const canonicalMarketSchema = z.strictObject({
  market_id: int64,
  config: z.strictObject({
    name: z.string(),
    quote: address,
    step_size: dec,
    step_price: dec,
    maintenance_margin_factor: dec,
    max_leverage: dec,
    min_order_size: dec,
    unlocked: z.boolean(),
    open_interest_limit: dec,
  }),
  base_asset_symbol: z.string(),
  quote_asset_symbol: z.string(),
  underlying: z.string(),
  display_name: z.string(),
  quote_volume_24h: dec,
  change_24h: dec,
  high_24h: dec,
  low_24h: dec,
  last_price: dec,
  mark_price: dec,
  index_price: dec,
  max_position_size: dec,
  open_interest: dec,
  funding_interval: int64,
  next_funding_time: int64,
  post_only: z.boolean(),
  last_cumulative_funding: dec,
  predicted_funding_rate: dec,
  display_base_asset_symbol: z.string(),
  accumulated_funding: dec,
  current_funding_rate: dec,
  funding_rate_8h: dec,
  active: z.boolean(),
  category: z.string(),
  search_tags: z.array(z.string()),
  is_new: z.boolean(),
  reduce_only: z.boolean(),
  display_at: int64,
});
export type MarketWire = z.input<typeof canonicalMarketSchema>;
export const canonicalMarketsSchema = z.strictObject({ markets: z.array(canonicalMarketSchema), cached_at: int64 });

const canonicalBookLevel = z.strictObject({ price: dec, quantity: dec, order_count: int32 });

/** rest-orderbook.fb.json. */
export const canonicalOrderbookSchema = z.strictObject({
  market_id: int64,
  bids: z.array(canonicalBookLevel),
  asks: z.array(canonicalBookLevel),
  total_bids: int64,
  total_asks: int64,
});

/** GET /v1/account/position: side and margin_mode int 0/1, "" for absent numbers. */
export const canonicalPositionSchema = z.strictObject({
  market_id: int64,
  size: decOrEmpty,
  quote_amount: decOrEmpty,
  last_funding_payment: decOrEmpty,
  margin_mode: binary,
  side: binary,
  isolated_usdc_balance: decOrEmpty,
  avg_entry_price: decOrEmpty,
  mark_price: decOrEmpty,
  index_price: decOrEmpty,
  leverage: decOrEmpty,
  unrealized_pnl: decOrEmpty,
  liquidation_price: decOrEmpty,
  margin_balance: decOrEmpty,
  initial_margin_requirement: decOrEmpty,
  maintenance_margin_requirement: decOrEmpty,
  quote_balance: decOrEmpty,
  free_isolated_usdc_balance: decOrEmpty,
  adl_price: decOrEmpty,
});
export type PositionWire = z.input<typeof canonicalPositionSchema>;
export const canonicalPositionDataSchema = z.strictObject({ position: canonicalPositionSchema });

/** One row of GET /v1/positions (`apiBuilderPosition`): side by name, signed size. */
export const canonicalPositionRowSchema = z.strictObject({
  account: address,
  market_id: int64,
  size: dec,
  quote_amount: dec,
  side: z.enum(['BUY', 'SELL']),
  margin_mode: int32,
  isolated_usdc_balance: dec,
  last_funding_payment: dec,
  leverage: dec,
  avg_entry_price: dec,
});
export type PositionRowWire = z.input<typeof canonicalPositionRowSchema>;
export const canonicalPositionsSchema = z.strictObject({
  positions: z.array(canonicalPositionRowSchema),
  total_count: int32,
  page: int32,
  page_size: int32,
  has_next_page: z.boolean(),
});

/** GET /v1/portfolio/details (`apiPosition`: int side). */
export const canonicalPortfolioPositionSchema = z.strictObject({
  market_id: int64,
  market_name: z.string(),
  size: dec,
  side: binary,
  margin_mode: binary,
  avg_entry_price: dec,
  mark_price: dec,
  unrealized_pnl: dec,
  liquidation_price: decOrEmpty,
  leverage: dec,
});
export type PortfolioPositionWire = z.input<typeof canonicalPortfolioPositionSchema>;
export const canonicalPortfolioDetailsSchema = z.strictObject({
  summary: z.strictObject({
    total_account_value: dec,
    cross_margin_balance: dec,
    free_collateral: dec,
    collateral_margin_balance: dec,
    total_unrealized_pnl: dec,
    margin_usage: dec,
    account_leverage: dec,
    in_liquidation: z.boolean(),
    risk_level: z.string(),
    realized_pnl: dec,
    usdc_balance: dec,
  }),
  positions: z.array(canonicalPortfolioPositionSchema),
});

/** GET /v1/orders/open: rows' market_id a number, the envelope's a string ("0" unfiltered). */
export const canonicalOpenOrderSchema = z.strictObject({
  order_id: z.string().regex(/^0x[0-9a-f]{48}$/, { error: 'expected 0x and 24 bytes of hex' }),
  market_id: int32,
  account: address,
  wide_order_id: int64,
  resting_order_id: int64,
  side: int32,
  size_steps: int32,
  price_ticks: int32,
  order_type: int32,
  time_in_force: int32,
  post_only: z.boolean(),
  reduce_only: z.boolean(),
  client_order_id: z.union([z.literal(''), int64]),
});
export type OpenOrderWire = z.input<typeof canonicalOpenOrderSchema>;
export const canonicalOpenOrdersSchema = z.strictObject({
  orders: z.array(canonicalOpenOrderSchema),
  market_id: int64,
  account: address,
  total_orders: int64,
});

/** GET /v1/trade-history's envelope (its fills are the fills channel's records). */
export const canonicalTradeHistorySchema = z.strictObject({
  trades: z.array(z.record(z.string(), z.unknown())),
  page: int32,
  has_next_page: z.boolean(),
  market_id: int64,
  wallet_address: address,
});

export const canonicalMarketTradeSchema = z.strictObject({
  id: z.string(),
  time: int64,
  price: dec,
  size: dec,
  maker_side: binary,
});
export const canonicalMarketTradeHistorySchema = z.strictObject({
  trades: z.array(canonicalMarketTradeSchema),
  market_id: int64,
});

export const canonicalFundingRateRecordSchema = z.strictObject({
  start_time: int64,
  end_time: int64,
  funding_rate: dec,
  index_price: dec,
});
export const canonicalFundingRateHistorySchema = z.strictObject({ records: z.array(canonicalFundingRateRecordSchema) });

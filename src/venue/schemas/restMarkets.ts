import { z } from 'zod';
import { successEnvelope } from './restEnvelope.js';
import { decimalStringSchema, idLooseSchema, nonNegativeDecimalStringSchema } from './restPrimitives.js';

/**
 * GET /v1/markets as venue-wire.md §2 catalogues it (rest-markets.fb.json, captured 2026-10-01).
 * What the bot reads is required; the rest is optional and unknown fields are ignored, so a
 * record with more or fewer extras still reads.
 */

/** Nanoseconds or seconds as an integer string (the venue's) or a number. */
const intTextSchema = z.union([
  z.string().regex(/^\d+$/, { error: 'expected an integer string' }),
  z.number().int().min(0),
]);

/** `config` of a market: the grid every order is snapped to. */
export const marketConfigSchema = z.object({
  name: z.string(),
  step_size: nonNegativeDecimalStringSchema,
  step_price: nonNegativeDecimalStringSchema,
  min_order_size: nonNegativeDecimalStringSchema,
  max_leverage: nonNegativeDecimalStringSchema.optional(),
  maintenance_margin_factor: nonNegativeDecimalStringSchema.optional(),
  unlocked: z.boolean().optional(),
  /** The quote token's address (kept as text: only shown, never signed). */
  quote: z.string().optional(),
  open_interest_limit: nonNegativeDecimalStringSchema.optional(),
});

const optionalDecimal = decimalStringSchema.optional();

/** One element of `data.markets`; prices are decimal (not wei) strings. */
export const marketSchema = z.object({
  /** A string on the wire ("1"); a number is taken too. Output: the canonical string. */
  market_id: idLooseSchema,
  mark_price: decimalStringSchema,
  config: marketConfigSchema,
  active: z.boolean().optional(),
  post_only: z.boolean().optional(),
  reduce_only: z.boolean().optional(),
  /**
   * Absent in the newest captures (venue-wire.md §2 markets, disputed): absent means visible and
   * available; the bot reads neither.
   */
  visible: z.boolean().optional(),
  available: z.boolean().optional(),
  display_name: z.string().optional(),
  base_asset_symbol: z.string().optional(),
  quote_asset_symbol: z.string().optional(),
  display_base_asset_symbol: z.string().optional(),
  underlying: z.string().optional(),
  category: z.string().optional(),
  search_tags: z.array(z.string()).optional(),
  is_new: z.boolean().optional(),
  display_at: intTextSchema.optional(),
  last_price: optionalDecimal,
  index_price: optionalDecimal,
  high_24h: optionalDecimal,
  low_24h: optionalDecimal,
  change_24h: optionalDecimal,
  quote_volume_24h: optionalDecimal,
  open_interest: optionalDecimal,
  max_position_size: optionalDecimal,
  accumulated_funding: optionalDecimal,
  current_funding_rate: optionalDecimal,
  funding_rate_8h: optionalDecimal,
  predicted_funding_rate: optionalDecimal,
  last_cumulative_funding: optionalDecimal,
  /** Nanoseconds. */
  funding_interval: intTextSchema.optional(),
  /** Nanoseconds. */
  next_funding_time: intTextSchema.optional(),
});

export const marketsDataSchema = z.object({
  markets: z.array(marketSchema),
  /** Unix seconds, a string on the wire (venue-wire.md §1 times); a number is taken too. Kept as sent. */
  cached_at: z.union([z.string(), z.number()]).optional(),
});
export const marketsResponseSchema = successEnvelope(marketsDataSchema);

export type Market = z.output<typeof marketSchema>;
export type Markets = z.output<typeof marketsDataSchema>;

import { z } from 'zod';
import { successEnvelope } from './restEnvelope.js';
import { decimalStringSchema, idStringSchema, nonNegativeDecimalStringSchema } from './restPrimitives.js';

/** `config` of a market: the grid every order is snapped to. */
export const marketConfigSchema = z.object({
  name: z.string(),
  step_size: nonNegativeDecimalStringSchema,
  step_price: nonNegativeDecimalStringSchema,
  min_order_size: nonNegativeDecimalStringSchema,
  max_leverage: nonNegativeDecimalStringSchema.optional(),
  maintenance_margin_factor: nonNegativeDecimalStringSchema.optional(),
  unlocked: z.boolean().optional(),
});

/** One element of `data.markets` of GET /v1/markets; prices are decimal (not wei) strings. */
export const marketSchema = z.object({
  market_id: idStringSchema,
  mark_price: decimalStringSchema,
  config: marketConfigSchema,
  active: z.boolean().optional(),
  post_only: z.boolean().optional(),
  reduce_only: z.boolean().optional(),
  display_name: z.string().optional(),
  last_price: decimalStringSchema.optional(),
  index_price: decimalStringSchema.optional(),
  // venue-facts "Market funding": on the real venue's record, not in the spec's; kept when sent.
  current_funding_rate: decimalStringSchema.optional(),
  funding_rate_8h: decimalStringSchema.optional(),
  /** Nanoseconds. */
  next_funding_time: z.union([z.string().regex(/^\d+$/), z.number().int().min(0)]).optional(),
});

export const marketsDataSchema = z.object({
  markets: z.array(marketSchema),
  /** Server cache time; its unit is not specified, so it is kept as sent. */
  cached_at: z.union([z.string(), z.number()]).optional(),
});
export const marketsResponseSchema = successEnvelope(marketsDataSchema);

export type Market = z.output<typeof marketSchema>;
export type Markets = z.output<typeof marketsDataSchema>;

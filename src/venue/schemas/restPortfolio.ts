import { z } from 'zod';
import { decimalOrEmptySchema, marginModeLooseSchema, positionSideSchema } from './restAccount.js';
import { successEnvelope } from './restEnvelope.js';
import { addressSchema, idLooseSchema, idStringSchema, safeUintLooseSchema } from './restPrimitives.js';

/**
 * The account reads over every market (venue-wire.md §2): GET /v1/positions (the list, whose
 * side is "BUY"/"SELL") and GET /v1/portfolio/details (whose positions carry an int side). Both
 * sides are read in either form and come out as "BUY" | "SELL" | null, as the single read does.
 */

/** At most this many positions per page (our choice; the venue's bound is not shown). */
export const POSITIONS_MAX_PAGE_SIZE = 100;

export const positionsQuerySchema = z.object({
  account: addressSchema,
  page: z
    .string()
    .regex(/^[1-9]\d{0,8}$/, { error: 'expected an integer page number >= 1' })
    .optional(),
  page_size: z
    .string()
    .regex(/^[1-9]\d{0,3}$/, { error: `expected an integer 1 to ${POSITIONS_MAX_PAGE_SIZE}` })
    .refine((text) => Number(text) >= 1 && Number(text) <= POSITIONS_MAX_PAGE_SIZE, {
      error: `expected an integer 1 to ${POSITIONS_MAX_PAGE_SIZE}`,
    })
    .optional(),
  market_id: idStringSchema.optional(),
});

const intLike = z.union([z.string().regex(/^\d+$/), z.number().int().min(0)]);

/** One row of GET /v1/positions (the OpenAPI `apiBuilderPosition`); size is signed. */
export const positionRowSchema = z.object({
  account: addressSchema.optional(),
  market_id: idLooseSchema,
  size: decimalOrEmptySchema,
  side: positionSideSchema,
  margin_mode: marginModeLooseSchema.optional(),
  quote_amount: decimalOrEmptySchema.optional(),
  isolated_usdc_balance: decimalOrEmptySchema.optional(),
  last_funding_payment: decimalOrEmptySchema.optional(),
  unsettled_funding: decimalOrEmptySchema.optional(),
  leverage: decimalOrEmptySchema.optional(),
  avg_entry_price: decimalOrEmptySchema.optional(),
  block_number: intLike.optional(),
  log_index: intLike.optional(),
  worker_timestamp: intLike.optional(),
});

export const positionsDataSchema = z.object({
  positions: z.array(positionRowSchema),
  total_count: safeUintLooseSchema.optional(),
  page: safeUintLooseSchema.optional(),
  page_size: safeUintLooseSchema.optional(),
  has_next_page: z.boolean(),
});
export const positionsResponseSchema = successEnvelope(positionsDataSchema);
export type Positions = z.output<typeof positionsDataSchema>;

const optionalDecimal = decimalOrEmptySchema.optional();

/** `summary` of GET /v1/portfolio/details (seen only in a production client: every field optional). */
export const portfolioSummarySchema = z.object({
  total_account_value: optionalDecimal,
  cross_margin_balance: optionalDecimal,
  free_collateral: optionalDecimal,
  collateral_margin_balance: optionalDecimal,
  total_unrealized_pnl: optionalDecimal,
  margin_usage: optionalDecimal,
  account_leverage: optionalDecimal,
  in_liquidation: z.boolean().optional(),
  risk_level: z.string().optional(),
  realized_pnl: optionalDecimal,
  usdc_balance: optionalDecimal,
});

/** One position of the portfolio (the OpenAPI `apiPosition`): an int side. */
export const portfolioPositionSchema = z.object({
  market_id: idLooseSchema,
  market_name: z.string().optional(),
  size: decimalOrEmptySchema,
  side: positionSideSchema,
  margin_mode: marginModeLooseSchema.optional(),
  avg_entry_price: optionalDecimal,
  mark_price: optionalDecimal,
  unrealized_pnl: optionalDecimal,
  liquidation_price: optionalDecimal,
  leverage: optionalDecimal,
  isolated_usdc_balance: optionalDecimal,
});

export const portfolioDetailsDataSchema = z.object({
  summary: portfolioSummarySchema,
  positions: z.array(portfolioPositionSchema),
});
export const portfolioDetailsResponseSchema = successEnvelope(portfolioDetailsDataSchema);
export type PortfolioDetails = z.output<typeof portfolioDetailsDataSchema>;

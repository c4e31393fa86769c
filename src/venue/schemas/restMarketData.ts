import { z } from 'zod';
import { successEnvelope } from './restEnvelope.js';
import { decimalStringSchema, idLooseSchema, idStringSchema, safeUintLooseSchema } from './restPrimitives.js';

/**
 * The public market reads beside GET /v1/markets (venue-wire.md §2): the REST order book, a
 * market's public trades and its funding-rate history. Decimal strings stay strings; integers
 * are read whether they come as numbers or strings.
 */

/** `limit` of GET /v1/orderbook: 1 to 250 levels a side (venue-wire.md §2 orderbook). */
export const ORDERBOOK_MAX_LIMIT = 250;

const limitText = (max: number) =>
  z
    .string()
    // Canonical digits only (no leading zeros), as every other numeric query the simulator reads.
    .regex(/^[1-9]\d{0,3}$/, { error: `expected an integer 1 to ${max}` })
    .refine((text) => Number(text) >= 1 && Number(text) <= max, { error: `expected an integer 1 to ${max}` });

export const orderbookQuerySchema = z.object({
  market_id: idStringSchema,
  limit: limitText(ORDERBOOK_MAX_LIMIT).optional(),
});

/** One aggregated level: decimal price and quantity, the resting order count. */
export const restBookLevelSchema = z.object({
  price: decimalStringSchema,
  quantity: decimalStringSchema,
  order_count: safeUintLooseSchema.optional(),
});

/** `data` of GET /v1/orderbook (rest-orderbook.fb.json): bids best first, asks best first. */
export const orderbookDataSchema = z.object({
  market_id: idLooseSchema,
  bids: z.array(restBookLevelSchema),
  asks: z.array(restBookLevelSchema),
  total_bids: safeUintLooseSchema.optional(),
  total_asks: safeUintLooseSchema.optional(),
});
export const orderbookResponseSchema = successEnvelope(orderbookDataSchema);
export type RestOrderbook = z.output<typeof orderbookDataSchema>;

/** At most this many trades per read (our choice; the venue's bound is not shown). */
export const MARKET_TRADES_MAX_LIMIT = 1000;

export const marketTradeHistoryQuerySchema = z.object({ limit: limitText(MARKET_TRADES_MAX_LIMIT).optional() });

const nanosSchema = z.union([
  z.string().regex(/^\d{1,30}$/, { error: 'expected integer nanoseconds' }),
  z.number().int().min(0),
]);

/**
 * maker_side: disputed (venue-wire.md §2): 0/1, "0"/"1" or "BUY"/"SELL", all read; the output
 * is the name.
 */
const makerSideSchema = z
  .union([z.literal(0), z.literal(1), z.enum(['0', '1', 'BUY', 'SELL'])], {
    error: 'expected maker_side 0 or 1, "0" or "1", "BUY" or "SELL"',
  })
  .transform((value): 'BUY' | 'SELL' => (value === 0 || value === '0' || value === 'BUY' ? 'BUY' : 'SELL'));

export const marketTradeSchema = z.object({
  id: z.union([z.string(), z.number()]).optional(),
  time: nanosSchema,
  price: decimalStringSchema,
  size: decimalStringSchema,
  maker_side: makerSideSchema,
});

/** `data` of GET /v1/markets/id/{id}/trade-history, newest first. */
export const marketTradeHistoryDataSchema = z.object({
  trades: z.array(marketTradeSchema),
  market_id: idLooseSchema.optional(),
});
export const marketTradeHistoryResponseSchema = successEnvelope(marketTradeHistoryDataSchema);
export type MarketTradeHistory = z.output<typeof marketTradeHistoryDataSchema>;

/** One funding period; the CLI's mock names the time `block_time`, so every time is optional. */
export const fundingRateRecordSchema = z.object({
  start_time: nanosSchema.optional(),
  end_time: nanosSchema.optional(),
  block_time: nanosSchema.optional(),
  funding_rate: decimalStringSchema,
  index_price: decimalStringSchema.optional(),
});

/** `data` of GET /v1/markets/id/{id}/funding-rate-history. */
export const fundingRateHistoryDataSchema = z.object({ records: z.array(fundingRateRecordSchema) });
export const fundingRateHistoryResponseSchema = successEnvelope(fundingRateHistoryDataSchema);
export type FundingRateHistory = z.output<typeof fundingRateHistoryDataSchema>;

/** The `{id}` of the per-market reads. */
export const marketIdPathSchema = z.object({ id: idStringSchema });

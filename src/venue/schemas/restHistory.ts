import { z } from 'zod';
import { successEnvelope } from './restEnvelope.js';
import {
  addressSchema,
  decimalStringSchema,
  hexIdSchema,
  idLooseSchema,
  safeUintLooseSchema,
  txHashSchema,
  uintStringSchema,
} from './restPrimitives.js';
import { fillRecordWireSchema, ORDER_STATUSES } from './wsFramesPrivate.js';

/**
 * The venue's history reads (venue-facts "History and other reads"): order history, one order by
 * id, and the account's fills. Query schemas are shared by the simulator (which answers a bad
 * query with 400 InvalidArgument) and the client (which refuses to send one).
 * See docs/spec-gaps/venue.md ("History reads").
 */

/** venue-facts: `limit` at most 1000, at most 100 `order_ids`. */
export const HISTORY_MAX_LIMIT = 1000;
export const HISTORY_MAX_ORDER_IDS = 100;
/** Not shown: the page size when `limit` is absent (our choice). */
export const HISTORY_DEFAULT_LIMIT = 100;

export type OrderStatusName = (typeof ORDER_STATUSES)[number];

export const pageParamSchema = z
  .string()
  .regex(/^[1-9]\d{0,8}$/, { error: 'expected an integer page number >= 1' })
  .transform(Number);

export const limitParamSchema = z
  .string()
  .regex(/^[1-9]\d{0,8}$/, { error: `expected an integer 1 to ${HISTORY_MAX_LIMIT}` })
  .transform(Number)
  .refine((value) => value >= 1 && value <= HISTORY_MAX_LIMIT, {
    error: `expected an integer 1 to ${HISTORY_MAX_LIMIT}`,
  });

function commaList(text: string): string[] {
  return text.split(',').map((item) => item.trim());
}

/** Comma-separated `ORDER_STATUS_*` names (our choice of form; a repeated parameter is not read). */
const statusesParamSchema = z.string().transform((text, ctx): OrderStatusName[] => {
  const items = commaList(text);
  const bad = items.filter((item) => !(ORDER_STATUSES as readonly string[]).includes(item));
  if (bad.length > 0) {
    ctx.issues.push({
      code: 'custom',
      input: text,
      message: `unknown status ${JSON.stringify(bad[0])}: expected comma-separated ${ORDER_STATUSES.join(', ')}`,
    });
    return z.NEVER;
  }
  return items as OrderStatusName[];
});

/** Comma-separated hex order ids, at most 100; output lowercase with 0x. */
const orderIdsParamSchema = z.string().transform((text, ctx): string[] => {
  const items = commaList(text);
  if (items.length > HISTORY_MAX_ORDER_IDS) {
    ctx.issues.push({
      code: 'custom',
      input: text,
      message: `at most ${HISTORY_MAX_ORDER_IDS} order ids, ${items.length} sent`,
    });
    return z.NEVER;
  }
  const bad = items.find((item) => !/^(0x)?[0-9a-fA-F]+$/.test(item));
  if (bad !== undefined) {
    ctx.issues.push({
      code: 'custom',
      input: text,
      message: `not a hex order id: ${JSON.stringify(bad)} (expected comma-separated hex ids)`,
    });
    return z.NEVER;
  }
  return items.map((item) => {
    const lower = item.toLowerCase();
    return lower.startsWith('0x') ? lower : `0x${lower}`;
  });
});

export const HISTORY_SORT_ORDERS = ['-created_at', 'created_at'] as const;

/** GET /v1/orders. */
export const orderHistoryQuerySchema = z.object({
  account: addressSchema,
  page: pageParamSchema.optional(),
  limit: limitParamSchema.optional(),
  sorted_by: z.enum(HISTORY_SORT_ORDERS, { error: 'expected "-created_at" (newest first) or "created_at"' }).optional(),
  statuses: statusesParamSchema.optional(),
  order_ids: orderIdsParamSchema.optional(),
});

/** GET /v1/trade-history. */
export const tradeHistoryQuerySchema = z.object({
  account: addressSchema,
  page: pageParamSchema.optional(),
  limit: limitParamSchema.optional(),
});

/** GET /v1/orders/by-id/{order_id}: what the simulator accepts (its ids are 24 bytes, as the venue's). */
export const orderByIdPathSchema = z.object({
  order_id: z
    .string()
    .regex(/^(0x)?[0-9a-fA-F]{48}$/, { error: 'expected a 24-byte hex order id (48 hex digits, 0x optional)' }),
});

/** The client checks only that an id is hex: the venue's id length is its business. */
export const orderIdParamSchema = hexIdSchema;

const nanosLooseSchema = z
  .union([z.string().regex(/^\d{1,30}$/, { error: 'expected an integer nanosecond string' }), z.number().int().min(0)])
  .transform((value) => BigInt(value));

/** A decimal, or "" for none (output undefined). */
const optionalDecimalSchema = z
  .union([decimalStringSchema, z.literal('')])
  .transform((value) => (value === '' ? undefined : value));

/** uint64 decimal string, or "" / absent for none. */
const clientOrderIdSchema = z.union([uintStringSchema(64), z.literal('').transform(() => undefined)]);

/**
 * One order of the history (venue-facts record). Required: what reconciliation reads (identity,
 * side, status, sizes, prices, creation time); the rest is optional so a venue that leaves one
 * out still reads. `created_at` is nanoseconds (bigint); ids become bigint as in open orders.
 */
export const orderHistoryRecordSchema = z.object({
  id: hexIdSchema,
  market_id: idLooseSchema,
  sender: addressSchema.optional(),
  side: z.enum(['BUY', 'SELL']),
  type: z.enum(['LIMIT', 'MARKET']),
  time_in_force: z.enum(['GTC', 'GTT', 'FOK', 'IOC']).optional(),
  status: z.enum(ORDER_STATUSES),
  price: decimalStringSchema,
  size: decimalStringSchema,
  filled_size: decimalStringSchema,
  /** undefined when the venue sends "" (nothing filled). */
  avg_price: optionalDecimalSchema,
  post_only: z.boolean().optional(),
  reduce_only: z.boolean().optional(),
  resting_order_id: uintStringSchema(256).optional(),
  wide_order_id: uintStringSchema(256).optional(),
  client_order_id: clientOrderIdSchema.optional(),
  created_at: nanosLooseSchema,
  block_number: safeUintLooseSchema.optional(),
  log_index: safeUintLooseSchema.optional(),
  tx_hash: txHashSchema.optional(),
  fee_bps: safeUintLooseSchema.optional(),
  stop_price: optionalDecimalSchema.optional(),
  cancel_requested: z.boolean().optional(),
});
export type OrderHistoryRecordWire = z.input<typeof orderHistoryRecordSchema>;
export type OrderHistoryRecord = z.output<typeof orderHistoryRecordSchema>;

/** `data` of GET /v1/orders: the trade-history envelope's paging, mirrored (our choice). */
export const orderHistoryDataSchema = z.object({
  orders: z.array(orderHistoryRecordSchema),
  page: safeUintLooseSchema,
  has_next_page: z.boolean(),
});
export const orderHistoryResponseSchema = successEnvelope(orderHistoryDataSchema);
export type OrderHistoryWire = z.input<typeof orderHistoryDataSchema>;
export type OrderHistory = z.output<typeof orderHistoryDataSchema>;

export const orderByIdDataSchema = z.object({ order: orderHistoryRecordSchema });
export const orderByIdResponseSchema = successEnvelope(orderByIdDataSchema);
export type OrderByIdWire = z.input<typeof orderByIdDataSchema>;

/**
 * `data` of GET /v1/trade-history; each trade is the fills channel's record. The envelope also
 * carries `market_id` ("0" unfiltered, venue-wire.md §4.13); `fills` is read as a legacy name of
 * `trades` (two live clients accept it), and the output always says `trades`.
 */
export const tradeHistoryDataSchema = z
  .object({
    trades: z.array(fillRecordWireSchema).optional(),
    fills: z.array(fillRecordWireSchema).optional(),
    page: safeUintLooseSchema,
    has_next_page: z.boolean(),
    market_id: idLooseSchema.optional(),
    wallet_address: addressSchema.optional(),
  })
  .transform(({ fills, trades, ...rest }, ctx) => {
    const list = trades ?? fills;
    if (list === undefined) {
      ctx.issues.push({
        code: 'custom',
        input: undefined,
        path: ['trades'],
        message: 'expected an array at trades (or the legacy fills)',
      });
      return z.NEVER;
    }
    return { ...rest, trades: list };
  });
export const tradeHistoryResponseSchema = successEnvelope(tradeHistoryDataSchema);
export type TradeHistoryWire = z.input<typeof tradeHistoryDataSchema>;
export type TradeHistory = z.output<typeof tradeHistoryDataSchema>;

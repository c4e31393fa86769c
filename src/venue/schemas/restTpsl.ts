import { z } from 'zod';
import { successEnvelope } from './restEnvelope.js';
import { limitParamSchema, pageParamSchema } from './restHistory.js';
import {
  addressSchema,
  base64SignatureSchema,
  decimalStringSchema,
  hexSignatureSchema,
  idLooseSchema,
  marketIdStringSchema,
  nonNegativeDecimalStringSchema,
  safeUintLooseSchema,
  txHashSchema,
  uintNumberSchema,
} from './restPrimitives.js';
import {
  ACTIVE_TPSL_STATUSES,
  STOP_PRICE_OPTIONS,
  STOP_TYPE_FILTERS,
  STOP_TYPES,
  TPSL_ORDER_TYPES,
  TPSL_SIDES,
  TPSL_STATUSES,
  TPSL_TIFS,
  wireNameSchema,
  type TpslStatus,
} from './tpslNames.js';

/**
 * The venue's TP/SL endpoints (venue-tpsl.md "Endpoints"): the request bodies as the client sends
 * them (one reading of each disputed field: see docs/spec-gaps/real-wire.md "TP/SL orders: the
 * disputed readings"), the answers and the list read as decoded (every reading), and the list's
 * exact shape the simulator is held to.
 */

/**
 * base64 of the 65-byte form (TS, what perpbot sends by default), of the 64-byte compact form
 * (TS2, FB's note on permits), or 0x hex of 65 bytes: all read.
 */
export const tpslSignatureSchema = z.union([base64SignatureSchema, hexSignatureSchema], {
  error: 'expected a signature: base64 of 65 or 64 (EIP-2098) bytes, or 0x hex of 65 bytes',
});

const positiveDecimalSchema = nonNegativeDecimalStringSchema.refine((value) => /[1-9]/.test(value), {
  error: 'expected a positive decimal string',
});

/** A position share in basis points (the variant struct's `sizePercentBps`). */
export const sizePercentBpsSchema = uintNumberSchema(14).max(10_000, { error: 'expected 0 to 10000 basis points' });

/**
 * POST /v1/orders/tpsl as perpbot sends it: `market_id` a string (uint64), every enum by name (the
 * record's names; protojson takes a name for an enum field), `deadline` a number, the signature
 * base64 of the 65-byte form (TS) unless the caller asks for another. `size_percent_bps` only with
 * the variant struct.
 */
export const placeTpslRequestSchema = z.object({
  account: addressSchema,
  market_id: marketIdStringSchema,
  side: z.enum(TPSL_SIDES),
  size: nonNegativeDecimalStringSchema,
  stop_type: z.enum(STOP_TYPES),
  order_type: z.enum(TPSL_ORDER_TYPES),
  stop_price: positiveDecimalSchema,
  limit_price: nonNegativeDecimalStringSchema,
  stop_price_option: z.enum(STOP_PRICE_OPTIONS),
  tif: z.enum(TPSL_TIFS),
  signer: addressSchema,
  signature: tpslSignatureSchema,
  deadline: uintNumberSchema(32),
  size_percent_bps: sizePercentBpsSchema.optional(),
});
export type PlaceTpslRequestWire = z.input<typeof placeTpslRequestSchema>;

/** The venue's TP/SL order ids are opaque strings (FB fixture "conditional-1"); kept as sent. */
export const tpslOrderIdSchema = z
  .union([z.string(), z.number().int().min(0).transform(String)])
  .pipe(z.string().min(1, { error: 'expected a non-empty order id' }).max(256, { error: 'order id over 256 chars' }));

/** POST /v1/orders/tpsl/cancel (TS). */
export const cancelTpslRequestSchema = z.object({
  order_id: tpslOrderIdSchema,
  account: addressSchema,
  signer: addressSchema,
  signature: tpslSignatureSchema,
  deadline: uintNumberSchema(32),
});
export type CancelTpslRequestWire = z.input<typeof cancelTpslRequestSchema>;

/** POST /v1/orders/tpsl/cancel-all (FB): one market; 0 is refused as for the order cancel-all. */
export const cancelAllTpslRequestSchema = z.object({
  account: addressSchema,
  market_id: marketIdStringSchema.refine((value) => value !== '0', {
    error: 'a market id is required; 0 is not "all markets"',
  }),
  signer: addressSchema,
  deadline: uintNumberSchema(32),
  signature: tpslSignatureSchema,
});
export type CancelAllTpslRequestWire = z.input<typeof cancelAllTpslRequestSchema>;

/** `{order_id, sc_order_id?, tx_hash?, …}` (TS); the rest of the answer is not shown. */
export const placeTpslDataSchema = z.object({
  order_id: tpslOrderIdSchema,
  sc_order_id: idLooseSchema.optional(),
  tx_hash: txHashSchema.optional(),
  status: wireNameSchema(TPSL_STATUSES, 'TP/SL status').optional(),
});
export const placeTpslResponseSchema = successEnvelope(placeTpslDataSchema);
export type PlaceTpslResult = z.output<typeof placeTpslDataSchema>;

/** `{success, tx_hash?}` (TS); cancel-all's answer is not shown, read the same with a count. */
export const cancelTpslDataSchema = z.object({
  success: z.boolean(),
  tx_hash: txHashSchema.optional(),
  cancelled_count: safeUintLooseSchema.optional(),
});
export const cancelTpslResponseSchema = successEnvelope(cancelTpslDataSchema);
export type CancelTpslResult = z.output<typeof cancelTpslDataSchema>;

const nanosSchema = z
  .union([z.string().regex(/^\d{1,30}$/, { error: 'expected an integer nanosecond string' }), z.number().int().min(0)])
  .transform((value) => BigInt(value));

/** A decimal, or "" for none (output undefined). */
const optionalDecimalSchema = z
  .union([decimalStringSchema, z.literal('')])
  .transform((value) => (value === '' ? undefined : value));

/**
 * One TP/SL order (FB models; TS reads a subset, so only what identifies an order and when it
 * fires is required). Enums read by name or number; an unknown status is refused, so a new state
 * is never taken for one of these (FB fails closed the same way).
 */
export const tpslOrderRecordSchema = z.object({
  order_id: tpslOrderIdSchema,
  account: addressSchema.optional(),
  market_id: idLooseSchema,
  side: wireNameSchema(TPSL_SIDES, 'side'),
  size: decimalStringSchema,
  stop_type: wireNameSchema(STOP_TYPES, 'stop type'),
  order_type: wireNameSchema(TPSL_ORDER_TYPES, 'order type').optional(),
  stop_price: decimalStringSchema,
  limit_price: optionalDecimalSchema.optional(),
  stop_price_option: wireNameSchema([...STOP_PRICE_OPTIONS, 'PRICE_OPTION_NONE'], 'stop price option').optional(),
  status: z.enum(TPSL_STATUSES),
  tif: wireNameSchema(TPSL_TIFS, 'time in force').optional(),
  created_at: nanosSchema.optional(),
  expires_at: nanosSchema.optional(),
  /** Nanoseconds; 0 (or absent) until it fires. */
  triggered_at: nanosSchema.optional(),
  triggered_price: optionalDecimalSchema.optional(),
  trigger_tx_hash: z.string().optional(),
  triggered_tx_hash: z.string().optional(),
  /** A position-wide order shows size "0" with 10000 here (one fixture). */
  size_percent_bps: safeUintLooseSchema.optional(),
  filled_size: optionalDecimalSchema.optional(),
});
export type TpslOrderRecord = z.output<typeof tpslOrderRecordSchema>;

/** Active = ACCEPTED or TRIGGERED: a triggered order has fired and is being executed; it is not gone. */
export function isActiveTpsl(record: { readonly status: TpslStatus }): boolean {
  return ACTIVE_TPSL_STATUSES.includes(record.status);
}

/**
 * `data` of GET /v1/orders/tpsl: `{orders, total:"<string>", page, limit}` (FB); TS reads `orders`
 * and also takes `data` as the bare array, which is read here as a page holding it.
 */
export const tpslOrdersDataSchema = z.preprocess(
  (data) => (Array.isArray(data) ? { orders: data } : data),
  z.object({
    orders: z.array(tpslOrderRecordSchema),
    total: safeUintLooseSchema.optional(),
    page: safeUintLooseSchema.optional(),
    limit: safeUintLooseSchema.optional(),
  }),
);
export const tpslOrdersResponseSchema = successEnvelope(tpslOrdersDataSchema);
export type TpslOrderPage = z.output<typeof tpslOrdersDataSchema>;

/** `statuses` repeated (FB sends `statuses=A&statuses=B`) or comma-separated; the output is the list of names. */
const statusesParamSchema = z
  .union([z.string(), z.array(z.string())], { error: 'expected TP/SL status names' })
  .transform((value, ctx): TpslStatus[] => {
    const items = (typeof value === 'string' ? [value] : value).flatMap((text) => text.split(',')).map((s) => s.trim());
    const bad = items.find((item) => !(TPSL_STATUSES as readonly string[]).includes(item));
    if (bad === undefined) return items as TpslStatus[];
    ctx.issues.push({
      code: 'custom',
      input: value,
      message: `unknown status ${JSON.stringify(bad)}: expected ${TPSL_STATUSES.join(', ')}`,
    });
    return z.NEVER;
  });

const nanosParamSchema = z
  .string()
  .regex(/^(0|[1-9]\d{0,19})$/, { error: 'expected unix nanoseconds as an integer' })
  .transform((value) => BigInt(value));

/** GET /v1/orders/tpsl's query (venue-tpsl.md "Endpoints"): pages from 1, limit 1 to 1000. */
export const tpslOrdersQuerySchema = z.object({
  account: addressSchema,
  market_id: marketIdStringSchema.optional(),
  page: pageParamSchema.optional(),
  limit: limitParamSchema.optional(),
  stop_type: z.enum(STOP_TYPE_FILTERS, { error: `expected stop_type ${STOP_TYPE_FILTERS.join(', ')}` }).optional(),
  statuses: statusesParamSchema.optional(),
  start_time: nanosParamSchema.optional(),
  end_time: nanosParamSchema.optional(),
});

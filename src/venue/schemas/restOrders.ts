import { z } from 'zod';
import { successEnvelope } from './restEnvelope.js';
import { permitSchema } from './restPermit.js';
import {
  addressSchema,
  safeUintLooseSchema,
  decimalStringSchema,
  hexIdSchema,
  idLooseSchema,
  marketIdNumberSchema,
  txHashSchema,
  uintNumberSchema,
  uintStringSchema,
} from './restPrimitives.js';

export const sideSchema = z.union([z.literal(0), z.literal(1)], { error: 'expected 0 (Buy) or 1 (Sell)' });
export const orderTypeSchema = z.union([z.literal(0), z.literal(1)], { error: 'expected 0 (Market) or 1 (Limit)' });
export const timeInForceSchema = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)], {
  error: 'expected 0 (GTC), 1 (GTT), 2 (FOK) or 3 (IOC)',
});
export const stpModeSchema = z.union([z.literal(0), z.literal(1), z.literal(2)], {
  error: 'expected 0 (ExpireMaker), 1 (ExpireTaker) or 2 (ExpireBoth)',
});

/**
 * POST /v1/orders/place. Only the shape is checked here: a market order with GTC is well-formed
 * JSON that the venue answers with its own InvalidArgument text, and the simulator must be able
 * to give that answer. `permit` is absent on the JWT path.
 */
export const placeOrderRequestSchema = z.object({
  market_id: marketIdNumberSchema,
  size_steps: uintNumberSchema(32),
  price_ticks: uintNumberSchema(24),
  side: sideSchema,
  post_only: z.boolean(),
  reduce_only: z.boolean(),
  stp_mode: stpModeSchema,
  order_type: orderTypeSchema,
  time_in_force: timeInForceSchema,
  permit: permitSchema.optional(),
  builder_id: uintNumberSchema(16).optional(),
  builder_fee_bps: uintNumberSchema(16).optional(),
  /** uint64 exceeds JSON numbers, hence a decimal string (venue-facts). */
  client_order_id: uintStringSchema(64).optional(),
  ttl_units: uintNumberSchema(16).optional(),
});
export type PlaceOrderRequestWire = z.input<typeof placeOrderRequestSchema>;
export type PlaceOrderRequest = z.output<typeof placeOrderRequestSchema>;

/** `data` of the place answer; there is no fill price (venue-facts). */
export const placeOrderDataSchema = z.object({
  order_id: hexIdSchema,
  tx_hash: txHashSchema.optional(),
  block_number: safeUintLooseSchema.optional(),
  /** Not what the cancel hash uses; kept only for logs. */
  sc_order_id: idLooseSchema.optional(),
  /** "" when nothing filled (venue-wire.md §4.20): read as absent. */
  filled_quantity: z.union([decimalStringSchema, z.literal('').transform(() => undefined)]).optional(),
  filled_percent: z
    .union([
      decimalStringSchema,
      z.literal('').transform(() => undefined),
      z.number().transform(String).pipe(decimalStringSchema),
    ])
    .optional(),
  message: z.string().optional(),
});
export const placeOrderResponseSchema = successEnvelope(placeOrderDataSchema);
export type PlaceOrderResult = z.output<typeof placeOrderDataSchema>;

/** POST /v1/orders/cancel. The hash commits to resting_order_id; the body carries order_id. */
export const cancelOrderRequestSchema = z.object({
  market_id: marketIdNumberSchema,
  order_id: hexIdSchema,
  permit: permitSchema.optional(),
});
export type CancelOrderRequestWire = z.input<typeof cancelOrderRequestSchema>;
export type CancelOrderRequest = z.output<typeof cancelOrderRequestSchema>;

/**
 * POST /v1/orders/cancel-all. Whether market 0 means "all markets" is disputed (venue-facts), so
 * a real market id (>= 1) is required.
 */
export const cancelAllRequestSchema = z.object({
  market_id: marketIdNumberSchema.min(1, { error: 'a market id is required; 0 is not "all markets"' }),
  permit: permitSchema.optional(),
});
export type CancelAllRequestWire = z.input<typeof cancelAllRequestSchema>;

/**
 * One open order (venue-wire.md §2 orders/open): market_id a number on the wire (a string is
 * taken too), ids as strings. The first 8 bytes of order_id carry the wide id.
 */
export const openOrderSchema = z.object({
  order_id: hexIdSchema,
  resting_order_id: uintStringSchema(256),
  wide_order_id: uintStringSchema(256),
  market_id: idLooseSchema,
  account: addressSchema,
  side: sideSchema,
  size_steps: uintNumberSchema(32),
  price_ticks: uintNumberSchema(24),
  order_type: orderTypeSchema,
  time_in_force: timeInForceSchema,
  post_only: z.boolean(),
  reduce_only: z.boolean(),
  /** A uint64 string; "" (none) becomes undefined. */
  client_order_id: z.union([uintStringSchema(64), z.literal('').transform(() => undefined)]).optional(),
});
export type OpenOrder = z.output<typeof openOrderSchema>;

/**
 * `data` of GET /v1/orders/open. The venue sends `total_orders` and the top-level `market_id`
 * ("0" when unfiltered) as strings; numbers are taken too, and both are optional.
 */
export const openOrdersDataSchema = z.object({
  orders: z.array(openOrderSchema),
  total_orders: safeUintLooseSchema.optional(),
  market_id: idLooseSchema.optional(),
  account: z.string().optional(),
});
export const openOrdersResponseSchema = successEnvelope(openOrdersDataSchema);
export type OpenOrders = z.output<typeof openOrdersDataSchema>;

import { z } from 'zod';
import { isolatedMarginRequestSchema, leverageRequestSchema, marginModeRequestSchema } from './restAccount.js';
import {
  approveSingleRequestSchema,
  loginRequestSchema,
  registerSignerRequestSchema,
  revokeSignerRequestSchema,
} from './restAuth.js';
import {
  cancelAllRequestSchema,
  cancelOrderRequestSchema,
  orderTypeSchema,
  placeOrderRequestSchema,
  sideSchema,
  stpModeSchema,
  timeInForceSchema,
} from './restOrders.js';
import { permitSchema } from './restPermit.js';
import {
  intStringLooseSchema,
  marketIdLooseNumberSchema,
  marketIdLooseStringSchema,
  uintNumberLooseSchema,
  uintStringLooseSchema,
} from './restPrimitives.js';

/**
 * The request bodies as the venue accepts them: every integer as a JSON number or a base-10
 * string (venue-wire.md §4.4, live: a number `market_id` and `permit_params.nonce_anchor` were
 * accepted; protojson reads either for any integer). Each schema extends the client's own
 * request schema (which sends the documented types) and replaces only the integer fields, so
 * both give the same output for the same values. The simulator parses with these.
 */

/** An int enum sent as its number or its base-10 string; the output is the strict schema's. */
function looseEnum<T extends number>(strict: z.ZodType<T, T>) {
  return z
    .union([
      z.number(),
      z
        .string()
        .regex(/^\d{1,3}$/, { error: 'expected an integer' })
        .transform(Number),
    ])
    .pipe(strict);
}

export const permitAcceptSchema = permitSchema.extend({
  nonce_anchor: uintStringLooseSchema(48),
  nonce_bitmap_index: uintNumberLooseSchema(8),
  deadline: uintNumberLooseSchema(32),
});

export const placeOrderAcceptSchema = placeOrderRequestSchema.extend({
  market_id: marketIdLooseNumberSchema,
  size_steps: uintNumberLooseSchema(32),
  price_ticks: uintNumberLooseSchema(24),
  side: looseEnum(sideSchema),
  stp_mode: looseEnum(stpModeSchema),
  order_type: looseEnum(orderTypeSchema),
  time_in_force: looseEnum(timeInForceSchema),
  permit: permitAcceptSchema.optional(),
  builder_id: uintNumberLooseSchema(16).optional(),
  builder_fee_bps: uintNumberLooseSchema(16).optional(),
  client_order_id: uintStringLooseSchema(64).optional(),
  ttl_units: uintNumberLooseSchema(16).optional(),
});

export const cancelOrderAcceptSchema = cancelOrderRequestSchema.extend({
  market_id: marketIdLooseNumberSchema,
  permit: permitAcceptSchema.optional(),
});

export const cancelAllAcceptSchema = cancelAllRequestSchema.extend({
  market_id: marketIdLooseNumberSchema.pipe(cancelAllRequestSchema.shape.market_id),
  permit: permitAcceptSchema.optional(),
});

export const leverageAcceptSchema = leverageRequestSchema.extend({
  market_id: marketIdLooseStringSchema,
  leverage: z
    .union([z.string(), z.number()], { error: 'expected leverage as a base-10 string or a JSON number' })
    .transform(String)
    .pipe(leverageRequestSchema.shape.leverage),
  permit_params: permitAcceptSchema.optional(),
});

export const marginModeAcceptSchema = marginModeRequestSchema.extend({
  market_id: marketIdLooseStringSchema,
  margin_mode: looseEnum(marginModeRequestSchema.shape.margin_mode),
  permit_params: permitAcceptSchema.optional(),
});

export const isolatedMarginAcceptSchema = isolatedMarginRequestSchema.extend({
  market_id: marketIdLooseStringSchema,
  amount: intStringLooseSchema(128),
  permit_params: permitAcceptSchema.optional(),
});

export const registerSignerAcceptSchema = registerSignerRequestSchema.extend({
  expiration: uintStringLooseSchema(32),
  nonce_anchor: uintStringLooseSchema(48),
  nonce_bitmap_index: uintNumberLooseSchema(8),
});

export const revokeSignerAcceptSchema = revokeSignerRequestSchema.extend({
  nonce_anchor: uintStringLooseSchema(48),
  nonce_bitmap_index: uintNumberLooseSchema(8),
});

export const loginAcceptSchema = loginRequestSchema.extend({ deadline: uintNumberLooseSchema(32) });

export const approveSingleAcceptSchema = approveSingleRequestSchema.extend({
  budget: uintStringLooseSchema(96),
  allowance_expiry: uintNumberLooseSchema(32),
  nonce_anchor: uintStringLooseSchema(48),
  nonce_bitmap_index: uintNumberLooseSchema(8),
});

import { z } from 'zod';
import { addressSchema, idStringSchema } from './restPrimitives.js';

/** Query strings of the GET endpoints, for the simulator to validate and the client to build. */

export const accountPathSchema = z.object({ account: addressSchema });

/** `market_id` is optional: without it, every market's open orders (venue-wire.md §4.12). */
export const openOrdersQuerySchema = z.object({
  account: addressSchema,
  market_id: idStringSchema.optional(),
  start_index: idStringSchema.optional(),
  limit: idStringSchema.optional(),
  /** Comma-separated order ids. */
  order_ids: z.string().optional(),
});
export type OpenOrdersQueryWire = z.input<typeof openOrdersQuerySchema>;

export const sessionKeyStatusQuerySchema = z.object({ account: addressSchema, signer: addressSchema });
export type SessionKeyStatusQueryWire = z.input<typeof sessionKeyStatusQuerySchema>;

/** `account` is optional (venue-wire.md §4.9: live clients send none). */
export const loginNonceQuerySchema = z.object({ account: addressSchema.optional() });

export const positionQuerySchema = z.object({ account: addressSchema, market_id: idStringSchema });
export type PositionQueryWire = z.input<typeof positionQuerySchema>;

export const crossMarginBalanceQuerySchema = z.object({ account: addressSchema });

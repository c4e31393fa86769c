import { z } from 'zod';
import { successEnvelope } from './restEnvelope.js';
import { addressSchema, uintNumberLooseSchema, uintStringLooseSchema, uintStringSchema } from './restPrimitives.js';

/** A chain id sent as a decimal string or a number; signing needs it as a uint256 bigint. */
export const chainIdSchema = z.union([
  z
    .number()
    .int()
    .min(0)
    .transform((value) => BigInt(value)),
  uintStringSchema(256),
]);

/** GET /v1/system/config. Addresses change on redeploys, so they are always read at runtime. */
export const systemConfigDataSchema = z.object({
  addresses: z.object({
    auth: addressSchema,
    router: addressSchema,
    usdc: addressSchema.optional(),
    operator_hub: addressSchema.optional(),
  }),
  chain: z.object({ chain_id: chainIdSchema, name: z.string().optional() }).optional(),
  is_maintenance_mode: z.boolean().optional(),
});
export const systemConfigResponseSchema = successEnvelope(systemConfigDataSchema);
export type SystemConfigWire = z.input<typeof systemConfigDataSchema>;
export type SystemConfig = z.output<typeof systemConfigDataSchema>;

/**
 * GET /v1/nonce-state/{account}. The bitmap's encoding is not specified (decimal or hex), so it
 * stays the venue's string; the allocator needs only the anchor and the current index.
 */
export const nonceStateDataSchema = z.object({
  /** A string on the wire (64-bit), a number read too (venue-wire.md §2 nonce-state). */
  nonce_anchor: uintStringLooseSchema(48),
  current_bitmap_index: uintNumberLooseSchema(8),
  bitmap: z.string(),
});
export const nonceStateResponseSchema = successEnvelope(nonceStateDataSchema);
export type NonceState = z.output<typeof nonceStateDataSchema>;

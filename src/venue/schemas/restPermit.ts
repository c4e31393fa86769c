import { z } from 'zod';
import { addressSchema, base64SignatureSchema, uintNumberSchema, uintStringSchema } from './restPrimitives.js';

/**
 * The permit object (`permit` on place/cancel/cancel-all, `permit_params` on the account
 * actions). The bitmap index is checked as uint8, not 0..207: the venue itself answers 208..255
 * with `InvalidNonceIndex(uint8)`, and the simulator must be able to reproduce that answer. The
 * nonce allocator and `signPermit` keep indexes within 0..207 (protocol MAX_NONCE_BITMAP_INDEX).
 */
export const permitSchema = z.object({
  account: addressSchema,
  signer: addressSchema,
  nonce_anchor: uintStringSchema(48),
  nonce_bitmap_index: uintNumberSchema(8),
  deadline: uintNumberSchema(32),
  signature: base64SignatureSchema,
});

export type PermitWire = z.input<typeof permitSchema>;
export type Permit = z.output<typeof permitSchema>;

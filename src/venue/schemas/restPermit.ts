import { z } from 'zod';
import { addressSchema, base64SignatureSchema, uintNumberSchema, uintStringSchema } from './restPrimitives.js';

/**
 * The permit object (`permit` on place/cancel/cancel-all, `permit_params` on the account
 * actions). The bitmap index is checked as uint8, not 0..207: the venue itself answers 208..255
 * with `InvalidNonceIndex(uint8)`, and the simulator must be able to reproduce that answer. The
 * nonce allocator keeps indexes within 0..207 before anything is signed.
 */
export const permitSchema = z.object({
  account: addressSchema,
  signer: addressSchema,
  nonce_anchor: uintStringSchema(48),
  nonce_bitmap_index: uintNumberSchema(8),
  deadline: uintNumberSchema(32),
  signature: base64SignatureSchema,
});

/** Highest bitmap index the contract accepts; 208 and above revert. */
export const MAX_NONCE_BITMAP_INDEX = 207;

export type PermitWire = z.input<typeof permitSchema>;
export type Permit = z.output<typeof permitSchema>;

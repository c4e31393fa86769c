import { z } from 'zod';
import { successEnvelope } from './restEnvelope.js';
import { safeUintLooseSchema, txHashSchema } from './restPrimitives.js';

/**
 * `{success, tx_hash, block_number}`: what cancel-all answers (venue-facts). The spec leaves the
 * answers of cancel, leverage, margin-mode, isolated-margin and approve-single unshown; they use
 * the same shape because each is one on-chain transaction mined before the venue replies.
 */
export const actionReceiptDataSchema = z.object({
  success: z.boolean(),
  tx_hash: txHashSchema,
  block_number: safeUintLooseSchema,
});
export const actionReceiptResponseSchema = successEnvelope(actionReceiptDataSchema);

export type ActionReceipt = z.output<typeof actionReceiptDataSchema>;

import { z } from 'zod';
import { marketIdSchema } from './wsFramesFields.js';

/**
 * Frames the client sends. The simulator validates what it receives with these. Unknown keys are
 * stripped, not refused, because the real venue ignores parameters it does not know (which is why
 * the client checks every acknowledgement for the filter actually applied).
 */

const addressSchema = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'a 0x-prefixed 20-byte address');
const hexSchema = z.string().regex(/^0x[0-9a-fA-F]+$/, 'a 0x-prefixed hex string');

export const subscribeFrameSchema = z.object({
  method: z.literal('subscribe'),
  params: z.object({
    channel: z.string().min(1),
    /** JSON numbers on the venue; digit strings are accepted too, as protojson does (venue-wire.md §4.4). */
    market_ids: z.array(marketIdSchema).optional(),
    makers: z.array(addressSchema).optional(),
  }),
});
export type SubscribeFrame = z.infer<typeof subscribeFrameSchema>;

export const unsubscribeFrameSchema = z.object({
  method: z.literal('unsubscribe'),
  params: z.object({ channel: z.string().min(1) }),
});
export type UnsubscribeFrame = z.infer<typeof unsubscribeFrameSchema>;

/** RegisterV2(address signer,string message,uint256 nonce) signed by the session key. */
export const authV2FrameSchema = z.object({
  method: z.literal('auth_v2'),
  params: z.object({
    account: addressSchema,
    signer: addressSchema,
    message: z.string(),
    /** As received from GET /v1/auth/nonce: 64 hex without 0x on the venue (venue-wire.md §3, auth_v2); 0x accepted. */
    nonce: z.string().regex(/^(?:0x)?[0-9a-fA-F]+$/, 'a hex string, with or without 0x'),
    /** Unix seconds as a decimal string; a working client omits it, so it is optional. */
    expiration: z.union([z.string().regex(/^\d{1,10}$/), z.number().int().min(0)]).optional(),
    signature: hexSchema,
  }),
});
export type AuthV2Frame = z.infer<typeof authV2FrameSchema>;

/** JWT flow. The spec names only the method; we choose `params.token` (the access token). */
export const authJwtFrameSchema = z.object({
  method: z.literal('auth'),
  params: z.object({ token: z.string().min(1) }),
});

export const clientFrameSchema = z.discriminatedUnion('method', [
  subscribeFrameSchema,
  unsubscribeFrameSchema,
  authV2FrameSchema,
  authJwtFrameSchema,
]);

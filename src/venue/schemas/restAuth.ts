import { z } from 'zod';
import { successEnvelope } from './restEnvelope.js';
import { chainIdSchema } from './restSystem.js';
import {
  addressSchema,
  base64SignatureSchema,
  safeUintLooseSchema,
  hexSignatureSchema,
  txHashSchema,
  uintNumberLooseSchema,
  uintNumberSchema,
  uintStringSchema,
} from './restPrimitives.js';

/** GET /v1/auth/eip712-domain: one domain for every signature (setup, permits, login, WS). */
export const eip712DomainDataSchema = z.object({
  name: z.string(),
  version: z.string(),
  chain_id: chainIdSchema,
  verifying_contract: addressSchema,
});
export const eip712DomainResponseSchema = successEnvelope(eip712DomainDataSchema);
export type Eip712DomainWire = z.input<typeof eip712DomainDataSchema>;
export type Eip712Domain = z.output<typeof eip712DomainDataSchema>;

/** GET /v1/auth/session-key-status. 1 = Active, 3 = Revoked; other values are passed through. */
export const sessionKeyStatusDataSchema = z.object({
  status: uintNumberLooseSchema(8),
  status_description: z.string(),
});
export const sessionKeyStatusResponseSchema = successEnvelope(sessionKeyStatusDataSchema);
export type SessionKeyStatus = z.output<typeof sessionKeyStatusDataSchema>;
export const SESSION_KEY_ACTIVE = 1;
export const SESSION_KEY_REVOKED = 3;

const loginNonceTextSchema = z
  .string()
  .regex(/^(0x|0X)?[0-9a-fA-F]{1,64}$/, { error: 'expected a hex nonce of at most 32 bytes, with or without 0x' });

/** "ABC" and "0xabc" both become "0xabc": the nonce is signed as a uint256. */
export function normalizeLoginNonce(text: string): `0x${string}` {
  return `0x${bareLoginNonce(text)}`;
}

/**
 * The nonce's hex digits without 0x, lowercase: the form the live venue sends and reads back in
 * login and in WebSocket auth_v2 (venue-wire.md §3 auth_v2, §4.9).
 */
export function bareLoginNonce(text: string): string {
  const digits = text.startsWith('0x') || text.startsWith('0X') ? text.slice(2) : text;
  return digits.toLowerCase();
}

/**
 * GET /v1/auth/nonce: live it is `{"data":{"nonce":"<64 hex, no 0x>"}}`; the official page
 * prints it top-level and a mock adds 0x, so all are read (venue-wire.md §2 auth/nonce).
 * Outputs `{nonce}` with a lowercase 0x-prefixed value (signed as a uint256); bareLoginNonce
 * gives back the form that is sent.
 */
export const loginNonceResponseSchema = z
  .object({
    nonce: loginNonceTextSchema.optional(),
    data: z.object({ nonce: loginNonceTextSchema.optional() }).optional(),
    request_id: z.string().optional(),
  })
  .transform((body, ctx) => {
    const raw = body.data?.nonce ?? body.nonce;
    if (raw === undefined) {
      ctx.issues.push({
        code: 'custom',
        message: 'expected a nonce at data.nonce or at top-level nonce',
        input: body,
        path: ['nonce'],
      });
      return z.NEVER;
    }
    return { nonce: normalizeLoginNonce(raw) };
  });
export type LoginNonce = z.output<typeof loginNonceResponseSchema>;

/** POST /v1/auth/register-signer: two signatures over the same (anchor, bit). */
export const registerSignerRequestSchema = z.object({
  account: addressSchema,
  signer: addressSchema,
  message: z.string(),
  expiration: uintStringSchema(32),
  nonce_anchor: uintStringSchema(48),
  nonce_bitmap_index: uintNumberSchema(8),
  account_signature: hexSignatureSchema,
  signer_signature: hexSignatureSchema,
});
export type RegisterSignerRequestWire = z.input<typeof registerSignerRequestSchema>;

/** `transaction_hash` is "" when the signer was already active (idempotent success). */
export const registerSignerDataSchema = z.object({
  success: z.boolean(),
  transaction_hash: txHashSchema,
  status: z.union([z.string(), z.number()]).optional(),
  block_number: safeUintLooseSchema.optional(),
});
export const registerSignerResponseSchema = successEnvelope(registerSignerDataSchema);
export type RegisterSignerResult = z.output<typeof registerSignerDataSchema>;

export const revokeSignerRequestSchema = z.object({
  account: addressSchema,
  signer: addressSchema,
  nonce_anchor: uintStringSchema(48),
  nonce_bitmap_index: uintNumberSchema(8),
  account_signature: hexSignatureSchema,
});
export type RevokeSignerRequestWire = z.input<typeof revokeSignerRequestSchema>;

/** Not shown in the spec; modelled on the register-signer answer. */
export const revokeSignerDataSchema = z.object({
  success: z.boolean(),
  transaction_hash: txHashSchema.optional(),
  block_number: safeUintLooseSchema.optional(),
});
export const revokeSignerResponseSchema = successEnvelope(revokeSignerDataSchema);
export type RevokeSignerResult = z.output<typeof revokeSignerDataSchema>;

export const loginRequestSchema = z.object({
  account: addressSchema,
  nonce: loginNonceTextSchema,
  deadline: uintNumberSchema(32),
  signature: hexSignatureSchema,
});
export type LoginRequestWire = z.input<typeof loginRequestSchema>;

/** Login and refresh both answer with a fresh pair; `expires_in` is seconds (900 observed). */
export const tokenPairDataSchema = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1),
  expires_in: z.number().int().positive(),
});
export const tokenPairResponseSchema = successEnvelope(tokenPairDataSchema);
export type TokenPair = z.output<typeof tokenPairDataSchema>;

export const refreshRequestSchema = z.object({ refresh_token: z.string().min(1) });
export type RefreshRequestWire = z.input<typeof refreshRequestSchema>;

/**
 * POST /v1/auth/approve-single (venue-facts body). `operator` is addresses.operator_hub; budget is
 * USD × 10^18 (uint96). The signature is 0x hex, but one published client sends base64: both
 * pass so the simulator accepts what the real venue accepts.
 */
export const approveSingleRequestSchema = z.object({
  account: addressSchema,
  operator: addressSchema,
  budget: uintStringSchema(96),
  allowance_expiry: uintNumberSchema(32),
  nonce_anchor: uintStringSchema(48),
  nonce_bitmap_index: uintNumberSchema(8),
  signature: z.union([hexSignatureSchema, base64SignatureSchema]),
});
export type ApproveSingleRequestWire = z.input<typeof approveSingleRequestSchema>;

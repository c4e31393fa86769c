import { z } from 'zod';
import { successEnvelope } from './restEnvelope.js';
import { permitSchema } from './restPermit.js';
import {
  addressSchema,
  decimalStringSchema,
  idLooseSchema,
  intStringSchema,
  marketIdStringSchema,
  nonNegativeDecimalStringSchema,
  txHashSchema,
  uintNumberLooseSchema,
} from './restPrimitives.js';

/** POST /v1/account/deposit (testnet faucet). */
export const depositRequestSchema = z.object({
  account: addressSchema,
  amount: nonNegativeDecimalStringSchema,
});
export type DepositRequestWire = z.input<typeof depositRequestSchema>;

/** Not shown in the spec: every field optional, so any object answer is accepted. */
export const depositDataSchema = z.object({
  success: z.boolean().optional(),
  tx_hash: txHashSchema.optional(),
  amount: decimalStringSchema.optional(),
});
export const depositResponseSchema = successEnvelope(depositDataSchema);
export type DepositResult = z.output<typeof depositDataSchema>;

/** POST /v1/account/leverage: `leverage` is a base-10 string parsed as uint8, 1 to 255. */
export const leverageRequestSchema = z.object({
  market_id: marketIdStringSchema,
  leverage: z
    .string()
    .regex(/^\d+$/, { error: 'expected a base-10 integer string' })
    .transform((value) => BigInt(value))
    .refine((value) => value >= 1n && value <= 255n, { error: 'leverage must be 1 to 255 (uint8)' }),
  permit_params: permitSchema.optional(),
});
export type LeverageRequestWire = z.input<typeof leverageRequestSchema>;

/** POST /v1/account/margin-mode: 0 = Cross, 1 = Isolated. */
export const marginModeRequestSchema = z.object({
  market_id: marketIdStringSchema,
  margin_mode: z.union([z.literal(0), z.literal(1)], { error: 'expected 0 (Cross) or 1 (Isolated)' }),
  permit_params: permitSchema.optional(),
});
export type MarginModeRequestWire = z.input<typeof marginModeRequestSchema>;

/**
 * POST /v1/account/isolated-margin. The spec leaves the JSON types open: market_id is a string like
 * the other account actions, and amount a signed decimal-integer string because int128 does not
 * fit a JSON number.
 */
export const isolatedMarginRequestSchema = z.object({
  market_id: marketIdStringSchema,
  amount: intStringSchema(128),
  permit_params: permitSchema.optional(),
});
export type IsolatedMarginRequestWire = z.input<typeof isolatedMarginRequestSchema>;

/** A decimal string, or "" (a flat position, an absent number) which becomes null. */
export const decimalOrEmptySchema = z.union([z.literal('').transform(() => null), decimalStringSchema]);

/**
 * The position's side as the single-position read sends it: the int 0 (buy) / 1 (sell)
 * (venue-wire.md §2 account/position, live), taken also as "0"/"1" and as the "BUY"/"SELL" of the
 * list endpoint and the channel; "" is none. Normalised to the names the engine reads.
 */
export const positionSideSchema = z
  .union([z.literal(0), z.literal(1), z.enum(['0', '1', 'BUY', 'SELL', ''])], {
    error: 'expected a side: 0 or 1, "0" or "1", "BUY" or "SELL", or ""',
  })
  .transform((value): 'BUY' | 'SELL' | null => {
    if (value === '') return null;
    return value === 0 || value === '0' || value === 'BUY' ? 'BUY' : 'SELL';
  });

/** margin_mode 0 (cross) / 1 (isolated) as a number or its string; "" is none. */
export const marginModeLooseSchema = z.union([uintNumberLooseSchema(8), z.literal('').transform(() => null)]);

/**
 * `data.position` of GET /v1/account/position (venue-wire.md §2, live). A flat position comes
 * back with market_id "0" and "" for every absent number; those become null so nobody mistakes
 * "" for zero. Whether a position is flat is told by its size (see isFlatPosition), never by its
 * side, which the venue keeps (0) on a flat record. Fields beyond the engine's are optional.
 */
export const positionSchema = z.object({
  market_id: idLooseSchema,
  size: decimalOrEmptySchema,
  side: positionSideSchema,
  margin_mode: marginModeLooseSchema,
  isolated_usdc_balance: decimalOrEmptySchema,
  avg_entry_price: decimalOrEmptySchema,
  mark_price: decimalOrEmptySchema,
  leverage: decimalOrEmptySchema,
  unrealized_pnl: decimalOrEmptySchema,
  liquidation_price: decimalOrEmptySchema,
  quote_amount: decimalOrEmptySchema.optional(),
  last_funding_payment: decimalOrEmptySchema.optional(),
  index_price: decimalOrEmptySchema.optional(),
  margin_balance: decimalOrEmptySchema.optional(),
  initial_margin_requirement: decimalOrEmptySchema.optional(),
  maintenance_margin_requirement: decimalOrEmptySchema.optional(),
  quote_balance: decimalOrEmptySchema.optional(),
  free_isolated_usdc_balance: decimalOrEmptySchema.optional(),
  adl_price: decimalOrEmptySchema.optional(),
});
export const positionDataSchema = z.object({ position: positionSchema });
export const positionResponseSchema = successEnvelope(positionDataSchema);
export type Position = z.output<typeof positionSchema>;

/** True for the venue's "no position" record: market_id "0", or a size that is "" or zero. */
export function isFlatPosition(position: Position): boolean {
  return position.market_id === '0' || position.size === null || /^-?0*(\.0*)?$/.test(position.size);
}

/** GET /v1/account/cross-margin-balance; the balance may be negative. */
export const crossMarginBalanceDataSchema = z.object({ balance: decimalStringSchema });
export const crossMarginBalanceResponseSchema = successEnvelope(crossMarginBalanceDataSchema);
export type CrossMarginBalance = z.output<typeof crossMarginBalanceDataSchema>;

import { z } from 'zod';
import { parseAddress, type Address } from '../../core/address.js';
import { isDecimalString } from '../../core/decimal.js';
import { uintMax } from '../../core/integerRange.js';

/**
 * Wire primitives shared by every REST body schema. Wire strings become exact types here, once:
 * addresses are checksummed, integer strings become range-checked bigints, money stays an exact
 * decimal string. JSON numbers are only accepted for small integers the spec sends as numbers.
 */

/** Any 0x address (lower, upper or valid EIP-55 case); the output is checksummed. */
export const addressSchema = z.string().transform((value, ctx): Address => {
  try {
    return parseAddress(value, 'address');
  } catch {
    ctx.issues.push({ code: 'custom', message: 'expected a 0x-prefixed 20-byte hex address', input: value });
    return z.NEVER;
  }
});

/** An exact decimal string such as "-12.5"; kept as a string so no digit is lost. */
export const decimalStringSchema = z
  .string()
  .refine(isDecimalString, { error: 'expected a decimal string such as "12.5"' });

export const nonNegativeDecimalStringSchema = decimalStringSchema.refine((value) => !value.startsWith('-'), {
  error: 'expected a non-negative decimal string',
});

/** The patterns the hand-checked answer decoders share with these schemas (`fastAnswers.ts`). */
export const UNSIGNED_INTEGER_TEXT = /^\d+$/;
const SIGNED_INTEGER_TEXT = /^-?\d+$/;

/** A base-10 unsigned integer carried as a string, range-checked to `bits`, output as bigint. */
export function uintStringSchema(bits: number) {
  return z
    .string()
    .regex(UNSIGNED_INTEGER_TEXT, { error: `expected a base-10 unsigned integer string (uint${bits})` })
    .transform((value) => BigInt(value))
    .refine((value) => value <= uintMax(bits), {
      error: (issue) => outOfRange(issue.input, `uint${bits}`, 0n, uintMax(bits)),
    });
}

/** A base-10 signed integer string in two's-complement range of `bits`, output as bigint. */
export function intStringSchema(bits: number) {
  const max = (1n << BigInt(bits - 1)) - 1n;
  const min = -(1n << BigInt(bits - 1));
  return z
    .string()
    .regex(SIGNED_INTEGER_TEXT, { error: `expected a base-10 signed integer string (int${bits})` })
    .transform((value) => BigInt(value))
    .refine((value) => value >= min && value <= max, {
      error: (issue) => outOfRange(issue.input, `int${bits}`, min, max),
    });
}

/** A JSON number that is an unsigned integer of at most `bits` bits (bits <= 48 to stay safe). */
export function uintNumberSchema(bits: number) {
  return z
    .number()
    .int({ error: `expected an integer (uint${bits})` })
    .min(0, { error: (issue) => outOfRange(issue.input, `uint${bits}`, 0n, uintMax(bits)) })
    .max(Number(uintMax(bits)), { error: (issue) => outOfRange(issue.input, `uint${bits}`, 0n, uintMax(bits)) });
}

/**
 * An unsigned integer of `bits` bits sent as a JSON number or a base-10 string, output as a
 * number (bits <= 48). The real venue decodes like protojson, which takes either JSON type for
 * every integer (venue-wire.md §4.4: numbers were accepted live where the docs send strings).
 */
export function uintNumberLooseSchema(bits: number) {
  return z
    .union([z.number(), z.string()], {
      error: `expected an unsigned integer (uint${bits}) as a JSON number or a base-10 string`,
    })
    .transform((value, ctx) => {
      if (typeof value === 'number') return value;
      if (UNSIGNED_INTEGER_TEXT.test(value)) return Number(value);
      ctx.issues.push({
        code: 'custom',
        input: value,
        message: `expected a base-10 unsigned integer string (uint${bits})`,
      });
      return z.NEVER;
    })
    .pipe(uintNumberSchema(bits));
}

/**
 * An unsigned integer of `bits` bits sent as a base-10 string or a JSON number, output as bigint.
 * A JSON number past 2^53 has already lost digits when it was parsed, so it is refused: such a
 * value must come as a string.
 */
export function uintStringLooseSchema(bits: number) {
  return z
    .union([z.string(), z.number()], {
      error: `expected an unsigned integer (uint${bits}) as a base-10 string or a JSON number`,
    })
    .transform((value, ctx) => {
      if (typeof value === 'string') return value;
      if (Number.isSafeInteger(value)) return String(value);
      ctx.issues.push({
        code: 'custom',
        input: value,
        message: Number.isInteger(value)
          ? `not exact as a JSON number (past 2^53): got ${value}; send uint${bits} as a string`
          : `expected an integer (uint${bits}), got ${value}`,
      });
      return z.NEVER;
    })
    .pipe(uintStringSchema(bits));
}

/** A signed integer string or a safe JSON integer, range-checked to `bits`, output as bigint. */
export function intStringLooseSchema(bits: number) {
  return z
    .union([z.string(), z.number()], { error: `expected a signed integer (int${bits}) as a string or a JSON number` })
    .transform((value, ctx) => {
      if (typeof value === 'string') return value;
      if (Number.isSafeInteger(value)) return String(value);
      ctx.issues.push({
        code: 'custom',
        input: value,
        message: `not an exact integer: got ${value}; send int${bits} as a string`,
      });
      return z.NEVER;
    })
    .pipe(intStringSchema(bits));
}

/** The value, the width and the allowed range: a refusal the sender can act on without the spec. */
function outOfRange(input: unknown, width: string, min: bigint, max: bigint): string {
  return `out of range for ${width}: got ${String(input)}, allowed ${min} to ${max}`;
}

/** An integer (a block number, a page) that some venues send as a number and others as a string; output as number. */
export const safeUintLooseSchema = z.union([
  z.number().int().min(0),
  z
    .string()
    .regex(UNSIGNED_INTEGER_TEXT, { error: 'expected a base-10 unsigned integer' })
    .transform((value) => Number(value))
    .refine(Number.isSafeInteger, { error: 'expected a safe integer' }),
]);

export const ID_STRING_PATTERN = /^(0|[1-9]\d*)$/;

/** A numeric identifier carried as a string ("1"); stays a string, canonical (no leading zeros). */
export const idStringSchema = z
  .string()
  // abort: checks after it (a range) only ever see a numeric string.
  .regex(ID_STRING_PATTERN, { error: 'expected a numeric id string without leading zeros', abort: true });

/** A numeric id that may arrive as a number or a string; output is the canonical string. */
export const idLooseSchema = z.union([
  z
    .number()
    .int()
    .min(0)
    .transform((value) => String(value)),
  idStringSchema,
]);

/** A market id string as used by the account endpoints; market ids fit in 16 bits. */
export const marketIdStringSchema = idStringSchema.refine((value) => BigInt(value) <= uintMax(16), {
  error: 'out of range for a market id (uint16)',
});

export const marketIdNumberSchema = uintNumberSchema(16);

/** A market id in a request body: a JSON number or a string (venue-wire.md §4.4), output as a number. */
export const marketIdLooseNumberSchema = uintNumberLooseSchema(16);

/** A market id in a request body: a JSON number or a string, output as the canonical string. */
export const marketIdLooseStringSchema = z
  .union([z.number(), z.string()], { error: 'expected a market id as a JSON number or a string' })
  .transform((value) => (typeof value === 'number' ? String(value) : value))
  .pipe(marketIdStringSchema);

/** 0x-prefixed hex of exactly 65 bytes (r, s, v): account, signer and login signatures. */
export const hexSignatureSchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{130}$/, { error: 'expected a 0x-prefixed hex signature of 65 bytes' });

/**
 * Decoded length of standard padded base64, or undefined when the text is not base64: a length
 * divisible by four, one or more characters of the alphabet, then at most two `=` (the pattern
 * `^[A-Za-z0-9+/]+={0,2}$`, checked character by character: every signed request's signature
 * passes here, and the pattern was a noticeable share of a request's checks).
 */
export function base64ByteLength(text: string): number | undefined {
  const length = text.length;
  if (length % 4 !== 0 || length === 0) return undefined;
  let padding = 0;
  while (padding < 2 && text.charCodeAt(length - 1 - padding) === EQUALS_SIGN) padding += 1;
  const end = length - padding;
  for (let i = 0; i < end; i++) if (!isBase64Char(text.charCodeAt(i))) return undefined;
  return (length / 4) * 3 - padding;
}

const EQUALS_SIGN = 0x3d;

/** A-Z, a-z, 0-9, + and /. */
function isBase64Char(code: number): boolean {
  return (
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x30 && code <= 0x39) ||
    code === 0x2b ||
    code === 0x2f
  );
}

/** Standard base64 of a 64-byte EIP-2098 compact signature or a 65-byte r+s+v signature. */
export const base64SignatureSchema = z.string().refine(
  (value) => {
    const length = base64ByteLength(value);
    return length === 64 || length === 65;
  },
  { error: 'expected standard base64 of a 64-byte (EIP-2098) or 65-byte signature' },
);

/** Transaction hash; empty when the venue had nothing to send (e.g. signer already active). */
export const TX_HASH_PATTERN = /^(0x[0-9a-fA-F]{64})?$/;
export const txHashSchema = z.string().regex(TX_HASH_PATTERN, { error: 'expected a 0x-prefixed 32-byte hash or ""' });

/** Hex identifier with or without 0x (order ids). */
export const HEX_ID_PATTERN = /^(0x)?[0-9a-fA-F]+$/;
export const hexIdSchema = z.string().regex(HEX_ID_PATTERN, { error: 'expected a hex string' });

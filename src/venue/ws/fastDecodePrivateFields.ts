import { NANOS_PATTERN } from '../schemas/wsFramesFields.js';
import {
  ADDRESS_PATTERN,
  LIQUIDITY_INDICATORS,
  ORDER_STATUSES,
  STEP_COUNT_PATTERN,
  VENUE_ORDER_NUMBER_PATTERN,
} from '../schemas/wsFramesPrivate.js';
import { isNonNegativeInt, type JsonObject } from './fastDecodeFields.js';
import { setOptional } from './fastDecodeLooseRecord.js';

/**
 * The field rules of the private channels' schemas (`src/venue/schemas/wsFramesPrivate.ts`), one
 * function each, for their fast decoders. Each returns undefined where the schema refuses.
 */

/** z.string().min(1): `order_id` on orders and fills. */
export function decodeNonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.length >= 1 ? value : undefined;
}

/** addressSchema: a 0x-prefixed 20-byte hex address, kept as sent (no checksum casing). */
export function decodeAddress(value: unknown): string | undefined {
  return typeof value === 'string' && ADDRESS_PATTERN.test(value) ? value : undefined;
}

const ORDER_STATUS_SET: ReadonlySet<unknown> = new Set(ORDER_STATUSES);

export function decodeOrderStatus(value: unknown): (typeof ORDER_STATUSES)[number] | undefined {
  return ORDER_STATUS_SET.has(value) ? (value as (typeof ORDER_STATUSES)[number]) : undefined;
}

/** `size_steps`, `price_ticks`: a safe integer >= 0 or a digit string, read as a string. */
export function decodeStepCount(value: unknown): string | undefined {
  if (typeof value === 'string') return STEP_COUNT_PATTERN.test(value) ? value : undefined;
  return isNonNegativeInt(value) ? String(value) : undefined;
}

/** `wide_order_id`, `resting_order_id`: digits, or "" when unset (kept as ""). */
export function decodeVenueOrderNumber(value: unknown): string | undefined {
  return typeof value === 'string' && VENUE_ORDER_NUMBER_PATTERN.test(value) ? value : undefined;
}

/**
 * clientOrderIdSchema on an optional key: a string or a safe integer >= 0, read as a string.
 * "" is the venue's "none": zod's transform makes it undefined and the key stays, so it does here.
 */
export function setClientOrderId(record: JsonObject, raw: JsonObject): boolean {
  if (raw.client_order_id === '') {
    record.client_order_id = undefined;
    return true;
  }
  return setOptional(record, raw, 'client_order_id', decodeClientOrderId);
}

function decodeClientOrderId(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  return isNonNegativeInt(value) ? String(value) : undefined;
}

/** A fill's `time` in nanoseconds: an integer string of at most 30 digits or a safe integer >= 0. */
export function decodeFillTime(value: unknown): bigint | undefined {
  if (typeof value === 'string') return NANOS_PATTERN.test(value) ? BigInt(value) : undefined;
  return isNonNegativeInt(value) ? BigInt(value) : undefined;
}

export function decodeLiquidityIndicator(value: unknown): (typeof LIQUIDITY_INDICATORS)[number] | undefined {
  return value === 'MAKER' || value === 'TAKER' ? value : undefined;
}

/** A position's `margin_mode`: 0, 1 or any string, kept as sent. */
export function decodeMarginMode(value: unknown): 0 | 1 | string | undefined {
  return value === 0 || value === 1 || typeof value === 'string' ? value : undefined;
}

/** A position's `leverage`: a string or a finite number (z.number() refuses NaN and infinities), as a string. */
export function decodeLeverage(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
}

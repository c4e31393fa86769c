import { isDecimalString } from '../../core/decimal.js';
import { isJsonObject, type JsonObject } from '../../core/jsonObject.js';
import { actionReceiptResponseSchema } from '../schemas/restActionReceipt.js';
import { placeOrderResponseSchema } from '../schemas/restOrders.js';
import {
  HEX_ID_PATTERN,
  ID_STRING_PATTERN,
  TX_HASH_PATTERN,
  UNSIGNED_INTEGER_TEXT,
} from '../schemas/restPrimitives.js';

/**
 * Hand-checked decoders of the answers every order action gets (place, and cancel's receipt):
 * each builds what its zod schema builds, key order and all, and refuses (undefined) what it
 * refuses; zod then runs on a refusal, to name the field. A replay places and cancels an order on
 * most marks, and zod's parse of these two answers was 3 % of its CPU.
 * `test/venue/rest/fastAnswers.test.ts` holds each equal to its schema.
 */

/** Refused: the schema would refuse too. */
const NO = Symbol('refused');
type Decoded<T> = T | typeof NO;

/** The fast decoder of a response schema, if it has one. */
export function fastAnswerDecoder(schema: unknown): ((json: unknown) => unknown) | undefined {
  return FAST_ANSWERS.get(schema);
}

const FAST_ANSWERS = new Map<unknown, (json: unknown) => unknown>([
  [placeOrderResponseSchema, (json) => envelope(json, placeOrderData)],
  [actionReceiptResponseSchema, (json) => envelope(json, actionReceiptData)],
]);

/** successEnvelope: `{data, request_id?}`, unknown keys dropped. */
function envelope(json: unknown, data: (value: unknown) => Decoded<JsonObject>): JsonObject | undefined {
  if (!isJsonObject(json)) return undefined;
  const decoded = data(json['data']);
  if (decoded === NO) return undefined;
  const out: JsonObject = { data: decoded };
  return optional(out, json, 'request_id', stringOf) ? out : undefined;
}

/** placeOrderDataSchema, in its keys' order. */
function placeOrderData(value: unknown): Decoded<JsonObject> {
  if (!isJsonObject(value)) return NO;
  const orderId = value['order_id'];
  if (typeof orderId !== 'string' || !HEX_ID_PATTERN.test(orderId)) return NO;
  const out: JsonObject = { order_id: orderId };
  const ok =
    optional(out, value, 'tx_hash', txHashOf) &&
    optional(out, value, 'block_number', safeUintLooseOf) &&
    optional(out, value, 'sc_order_id', idLooseOf) &&
    optional(out, value, 'filled_quantity', decimalOrEmptyOf) &&
    optional(out, value, 'filled_percent', percentOf) &&
    optional(out, value, 'message', stringOf);
  return ok ? out : NO;
}

/** actionReceiptDataSchema: every key required. */
function actionReceiptData(value: unknown): Decoded<JsonObject> {
  if (!isJsonObject(value)) return NO;
  const success = value['success'];
  const txHash = txHashOf(value['tx_hash']);
  const block = safeUintLooseOf(value['block_number']);
  if (typeof success !== 'boolean' || txHash === NO || block === NO) return NO;
  return { success, tx_hash: txHash, block_number: block };
}

/**
 * An optional key as z.object reads it: absent stays absent, present (even undefined) is decoded
 * and set, undefined passing as undefined. False when the value is refused.
 */
function optional(
  out: JsonObject,
  from: JsonObject,
  key: string,
  decode: (value: unknown) => Decoded<unknown>,
): boolean {
  if (!(key in from)) return true;
  const value = from[key];
  if (value === undefined) {
    out[key] = undefined;
    return true;
  }
  const decoded = decode(value);
  if (decoded === NO) return false;
  out[key] = decoded;
  return true;
}

const stringOf = (value: unknown): Decoded<string> => (typeof value === 'string' ? value : NO);

const txHashOf = (value: unknown): Decoded<string> =>
  typeof value === 'string' && TX_HASH_PATTERN.test(value) ? value : NO;

/** safeUintLooseSchema: a safe integer >= 0, or its digits as text. */
function safeUintLooseOf(value: unknown): Decoded<number> {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : NO;
  if (typeof value !== 'string' || !UNSIGNED_INTEGER_TEXT.test(value)) return NO;
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : NO;
}

/** idLooseSchema: a safe integer >= 0 as its text, or a canonical id string. */
function idLooseOf(value: unknown): Decoded<string> {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? String(value) : NO;
  return typeof value === 'string' && ID_STRING_PATTERN.test(value) ? value : NO;
}

/** A decimal string, or "" read as absent (venue-wire.md §4.20). */
function decimalOrEmptyOf(value: unknown): Decoded<string | undefined> {
  if (value === '') return undefined;
  return typeof value === 'string' && isDecimalString(value) ? value : NO;
}

/** filled_percent: as `decimalOrEmptyOf`, or a number written as a decimal string. */
function percentOf(value: unknown): Decoded<string | undefined> {
  if (typeof value !== 'number') return decimalOrEmptyOf(value);
  const text = String(value);
  return isDecimalString(text) ? text : NO;
}

import type { z } from 'zod';
import { parseAddress } from '../../core/address.js';
import { base64ByteLength } from '../schemas/restPrimitives.js';
import { cancelAllRequestSchema, cancelOrderRequestSchema, placeOrderRequestSchema } from '../schemas/restOrders.js';

/**
 * Hand-written checks of the three order bodies, run before their zod schemas on the order path:
 * the schema check of a signed placement (two checksummed addresses, a base64 signature, a dozen
 * ranged integers through zod's machinery) was about 15 µs of an order's way to the socket.
 * Each check is conservative: true only when the schema certainly accepts the body; false means
 * "ask the schema", which then accepts or gives its issues. So no body the schema refuses is ever
 * sent, and refusals read exactly as before (test/venue/rest/fastRequestChecks.test.ts holds
 * each check to its schema).
 */
export type FastCheck = (body: unknown) => boolean;

/** Addresses the schema's address rule (`parseAddress`) accepted, so the EIP-55 check runs once per address. */
const knownAddresses = new Set<string>();
const MAX_KNOWN_ADDRESSES = 1_024;

function isAddress(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  if (knownAddresses.has(value)) return true;
  try {
    parseAddress(value, 'address');
  } catch {
    return false;
  }
  if (knownAddresses.size >= MAX_KNOWN_ADDRESSES) knownAddresses.clear();
  knownAddresses.add(value);
  return true;
}

function isUint(value: unknown, max: number): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= max;
}

function isOptionalUint(value: unknown, max: number): boolean {
  return value === undefined || isUint(value, max);
}

const DIGITS = /^\d+$/;

/** A base-10 string below 10^maxDigits (so certainly within the uint range whose maximum has more digits). */
function isShortUintString(value: unknown, maxDigits: number): boolean {
  return typeof value === 'string' && value.length <= maxDigits && DIGITS.test(value);
}

const UINT8 = 0xff;
const UINT16 = 0xffff;
const UINT24 = 0xff_ffff;
const UINT32 = 0xffff_ffff;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPermit(value: unknown): boolean {
  if (!isRecord(value)) return false;
  const signatureBytes = typeof value['signature'] === 'string' ? base64ByteLength(value['signature']) : undefined;
  return (
    isAddress(value['account']) &&
    isAddress(value['signer']) &&
    // uint48: 2^48 - 1 has 15 digits, so any 14 digits fit.
    isShortUintString(value['nonce_anchor'], 14) &&
    isUint(value['nonce_bitmap_index'], UINT8) &&
    isUint(value['deadline'], UINT32) &&
    (signatureBytes === 64 || signatureBytes === 65)
  );
}

function isOptionalPermit(value: unknown): boolean {
  return value === undefined || isPermit(value);
}

export function fastAcceptsPlaceOrder(body: unknown): boolean {
  return isRecord(body) && acceptsOrderTerms(body) && acceptsOptionalPlaceFields(body);
}

/** The fields every placement carries: market, size, price, side, flags, self-trade mode and order kind. */
function acceptsOrderTerms(body: Record<string, unknown>): boolean {
  const side = body['side'];
  const stp = body['stp_mode'];
  const type = body['order_type'];
  const tif = body['time_in_force'];
  return (
    isUint(body['market_id'], UINT16) &&
    isUint(body['size_steps'], UINT32) &&
    isUint(body['price_ticks'], UINT24) &&
    (side === 0 || side === 1) &&
    typeof body['post_only'] === 'boolean' &&
    typeof body['reduce_only'] === 'boolean' &&
    (stp === 0 || stp === 1 || stp === 2) &&
    (type === 0 || type === 1) &&
    (tif === 0 || tif === 1 || tif === 2 || tif === 3)
  );
}

/** The fields a placement may leave out: permit, builder, client order id and time to live. */
function acceptsOptionalPlaceFields(body: Record<string, unknown>): boolean {
  const clientOrderId = body['client_order_id'];
  return (
    isOptionalPermit(body['permit']) &&
    isOptionalUint(body['builder_id'], UINT16) &&
    isOptionalUint(body['builder_fee_bps'], UINT16) &&
    // uint64: 2^64 - 1 has 20 digits, so any 19 digits fit.
    (clientOrderId === undefined || isShortUintString(clientOrderId, 19)) &&
    isOptionalUint(body['ttl_units'], UINT16)
  );
}

const HEX_ID = /^(0x)?[0-9a-fA-F]+$/;

export function fastAcceptsCancelOrder(body: unknown): boolean {
  if (!isRecord(body)) return false;
  const orderId = body['order_id'];
  return (
    isUint(body['market_id'], UINT16) &&
    typeof orderId === 'string' &&
    HEX_ID.test(orderId) &&
    isOptionalPermit(body['permit'])
  );
}

export function fastAcceptsCancelAll(body: unknown): boolean {
  if (!isRecord(body)) return false;
  const market = body['market_id'];
  return isUint(market, UINT16) && (market as number) >= 1 && isOptionalPermit(body['permit']);
}

/** The fast check of a request schema, when it has one. */
export const FAST_REQUEST_CHECKS: ReadonlyMap<z.ZodType, FastCheck> = new Map<z.ZodType, FastCheck>([
  [placeOrderRequestSchema, fastAcceptsPlaceOrder],
  [cancelOrderRequestSchema, fastAcceptsCancelOrder],
  [cancelAllRequestSchema, fastAcceptsCancelAll],
]);

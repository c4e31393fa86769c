import { parseAddress, type Address } from '../../core/address.js';
import { uintMax } from '../../core/integerRange.js';
import { isJsonObject } from '../../core/jsonObject.js';
import type { Permit } from '../../venue/schemas/restPermit.js';
import { base64ByteLength } from '../../venue/schemas/restPrimitives.js';
import type { CancelOrderRequest, PlaceOrderRequest } from '../../venue/schemas/restOrders.js';
import { BoundedMap } from '../../core/boundedMap.js';

/**
 * Hand-written acceptance of the two bodies every trading client sends most (place and cancel),
 * for the simulator's hot path: the zod schemas cost several microseconds per request. Each
 * function returns exactly what `schema.parse` would return (same keys, same order, same values:
 * checksummed addresses, bigint integer strings), or undefined for anything it does not accept
 * outright; the caller then runs the zod schema, which accepts or refuses with its own texts.
 * So this may only ever accept a subset of what the schema accepts, never more, and refusals
 * always come from the schema. Integers are taken as JSON numbers or base-10 strings, as the
 * venue takes them (int enums only as numbers here; their strings go to the schema). A property
 * test holds both against the schemas in src/venue/schemas/restAcceptedBodies.ts: change one,
 * and the test says whether this must change too.
 */
type Body = Record<string, unknown>;

const UINT8 = 0xff;
const UINT16 = 0xffff;
const UINT24 = 0xff_ffff;
const UINT32 = 0xffff_ffff;
const UINT48_MAX = uintMax(48);
const UINT64_MAX = uintMax(64);
// The enumerations are the integers 0..max: side Buy/Sell, stp_mode ExpireMaker/Taker/Both,
// order_type Market/Limit, time_in_force GTC/GTT/FOK/IOC.
const SIDE_MAX = 1;
const STP_MODE_MAX = 2;
const ORDER_TYPE_MAX = 1;
const TIME_IN_FORCE_MAX = 3;
const DIGITS = /^\d+$/;
const HEX_ID = /^(0x)?[0-9a-fA-F]+$/;

/** The place body as `placeOrderRequestSchema` parses it, or undefined: ask the schema. */
export function fastPlaceOrderBody(input: unknown): PlaceOrderRequest | undefined {
  if (!isJsonObject(input)) return undefined;
  const marketId = input['market_id'];
  const sizeSteps = input['size_steps'];
  const priceTicks = input['price_ticks'];
  const side = input['side'];
  const postOnly = input['post_only'];
  const reduceOnly = input['reduce_only'];
  const stpMode = input['stp_mode'];
  const orderType = input['order_type'];
  const timeInForce = input['time_in_force'];
  const market = uintOf(marketId, UINT16);
  const size = uintOf(sizeSteps, UINT32);
  const price = uintOf(priceTicks, UINT24);
  if (
    market === undefined ||
    size === undefined ||
    price === undefined ||
    !isUint(side, SIDE_MAX) ||
    typeof postOnly !== 'boolean' ||
    typeof reduceOnly !== 'boolean' ||
    !isUint(stpMode, STP_MODE_MAX) ||
    !isUint(orderType, ORDER_TYPE_MAX) ||
    !isUint(timeInForce, TIME_IN_FORCE_MAX)
  ) {
    return undefined;
  }
  const out: Body = {
    market_id: market,
    size_steps: size,
    price_ticks: price,
    side,
    post_only: postOnly,
    reduce_only: reduceOnly,
    stp_mode: stpMode,
    order_type: orderType,
    time_in_force: timeInForce,
  };
  if (!optional(input, out, 'permit', permitValue)) return undefined;
  if (!optional(input, out, 'builder_id', uint16Value)) return undefined;
  if (!optional(input, out, 'builder_fee_bps', uint16Value)) return undefined;
  if (!optional(input, out, 'client_order_id', uint64TextValue)) return undefined;
  if (!optional(input, out, 'ttl_units', uint16Value)) return undefined;
  return out as PlaceOrderRequest;
}

/** The cancel body as `cancelOrderRequestSchema` parses it, or undefined: ask the schema. */
export function fastCancelOrderBody(input: unknown): CancelOrderRequest | undefined {
  if (!isJsonObject(input)) return undefined;
  const marketId = input['market_id'];
  const orderId = input['order_id'];
  const market = uintOf(marketId, UINT16);
  if (market === undefined || typeof orderId !== 'string' || !HEX_ID.test(orderId)) return undefined;
  const out: Body = { market_id: market, order_id: orderId };
  if (!optional(input, out, 'permit', permitValue)) return undefined;
  return out as CancelOrderRequest;
}

/** The value a field parses to, or NO when the fast path does not accept it. */
const NO = Symbol('no');
type FieldValue = (value: unknown) => unknown;

/**
 * An optional field: absent stays absent; a present value must be accepted (undefined is left
 * to the schema, whose handling of an explicit undefined the fast path does not copy).
 */
function optional(input: Body, out: Body, key: string, parse: FieldValue): boolean {
  const value = input[key];
  if (value === undefined) return !(key in input);
  const parsed = parse(value);
  if (parsed === NO) return false;
  out[key] = parsed;
  return true;
}

function permitValue(value: unknown): unknown {
  if (!isJsonObject(value)) return NO;
  const account = addressValue(value['account']);
  const signer = addressValue(value['signer']);
  const bit = uintOf(value['nonce_bitmap_index'], UINT8);
  const deadline = uintOf(value['deadline'], UINT32);
  const signature = value['signature'];
  if (account === undefined || signer === undefined || bit === undefined || deadline === undefined) return NO;
  const nonceAnchor = bigUintOf(value['nonce_anchor'], UINT48_MAX);
  if (nonceAnchor === undefined) return NO;
  if (typeof signature !== 'string') return NO;
  const length = base64ByteLength(signature);
  if (length !== 64 && length !== 65) return NO;
  const permit: Permit = { account, signer, nonce_anchor: nonceAnchor, nonce_bitmap_index: bit, deadline, signature };
  return permit;
}

function uint16Value(value: unknown): unknown {
  return uintOf(value, UINT16) ?? NO;
}

function uint64TextValue(value: unknown): unknown {
  return bigUintOf(value, UINT64_MAX) ?? NO;
}

/** An unsigned integer up to `max` sent as a JSON number or a digit string, as a number. */
function uintOf(value: unknown, max: number): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 && value <= max ? value : undefined;
  if (typeof value !== 'string' || value.length > 16 || !DIGITS.test(value)) return undefined;
  const parsed = Number(value);
  return parsed <= max ? parsed : undefined;
}

/** An unsigned integer up to `max` sent as a digit string or a safe JSON number, as a bigint. */
function bigUintOf(value: unknown, max: bigint): bigint | undefined {
  let parsed: bigint;
  if (typeof value === 'string') {
    if (!DIGITS.test(value)) return undefined;
    parsed = BigInt(value);
  } else if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) {
    parsed = BigInt(value);
  } else {
    return undefined;
  }
  return parsed <= max ? parsed : undefined;
}

function isUint(value: unknown, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= max;
}

/** Checksummed forms of the address texts seen (a client sends the same two over and over), bounded. */
const addresses = new BoundedMap<string, Address>(10_000);

function addressValue(value: unknown): Address | undefined {
  if (typeof value !== 'string') return undefined;
  const known = addresses.get(value);
  if (known !== undefined) return known;
  let address: Address;
  try {
    address = parseAddress(value, 'address');
  } catch {
    return undefined;
  }
  addresses.set(value, address);
  return address;
}

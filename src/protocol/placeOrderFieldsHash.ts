import {
  placeOrderHashBytes,
  HEADER_CLIENT_ORDER_ID,
  HEADER_PERMIT,
  HEADER_TTL,
  type Hex32,
  type PlaceOrderHashInput,
} from './actionHashes.js';
import { WORD, toHex } from './abiWords.js';
import { keccak256 } from './keccak.js';
import { packOrderWord, type OrderWordFields } from './orderWord.js';
import { selectorWord, SPEC_SELECTORS, type SelectorTable } from './selectors.js';

/**
 * The placeOrder action hash straight from an order's fields, as `placeOrderHash({ orderWord:
 * packOrderWord(...) })` computes it, for the order path: when every field is a small number in
 * range and no builder is named (the engine's checked orders always are) the words are written
 * with number arithmetic and one DataView, without the dozen bigint allocations of packing and
 * writing the uint88 word; anything else goes through the general functions, which refuse it with
 * their usual errors. Bit-identical (test/protocol/placeOrderFieldsHash.test.ts compares them on
 * random orders).
 */
export interface PlaceOrderFields {
  readonly marketId: number;
  readonly sizeSteps: number;
  readonly priceTicks: number;
  readonly side: number;
  readonly postOnly: boolean;
  readonly reduceOnly: boolean;
  readonly stpMode: number;
  readonly orderType: number;
  readonly timeInForce: number;
  readonly builderId?: number;
  readonly builderFeeBps?: number;
  readonly clientOrderId?: bigint;
  readonly ttlUnits?: number;
}

/** An order's fields as a place body carries them (the venue's names): the engine's order, the simulator's body. */
export interface PlaceOrderWireFields {
  readonly market_id: number;
  readonly size_steps: number;
  readonly price_ticks: number;
  /** 0 buy, 1 sell. */
  readonly side: number;
  readonly post_only: boolean;
  readonly reduce_only: boolean;
  /** 0 ExpireMaker, 1 ExpireTaker, 2 ExpireBoth. */
  readonly stp_mode: number;
  /** 0 market, 1 limit. */
  readonly order_type: number;
  /** 0 GTC, 1 GTT, 2 FOK, 3 IOC. */
  readonly time_in_force: number;
  readonly builder_id?: number | undefined;
  readonly builder_fee_bps?: number | undefined;
  /** uint64; absent or 0 means none. */
  readonly client_order_id?: bigint | undefined;
  /** GTT lifetime in seconds (uint16, at least 1); only with GTT. */
  readonly ttl_units?: number | undefined;
}

/** The fields a place body's action hash commits to, under the hash's names; each optional one only when set. */
export function placeOrderFieldsOf(o: PlaceOrderWireFields): PlaceOrderFields {
  // Key by key, not a conditional spread per optional field: this runs for every order the engine signs.
  const fields: { -readonly [K in keyof PlaceOrderFields]: PlaceOrderFields[K] } = {
    marketId: o.market_id,
    sizeSteps: o.size_steps,
    priceTicks: o.price_ticks,
    side: o.side,
    postOnly: o.post_only,
    reduceOnly: o.reduce_only,
    stpMode: o.stp_mode,
    orderType: o.order_type,
    timeInForce: o.time_in_force,
  };
  if (o.builder_id !== undefined) fields.builderId = o.builder_id;
  if (o.builder_fee_bps !== undefined) fields.builderFeeBps = o.builder_fee_bps;
  if (o.client_order_id !== undefined) fields.clientOrderId = o.client_order_id;
  if (o.ttl_units !== undefined) fields.ttlUnits = o.ttl_units;
  return fields;
}

const UINT16 = 0xffff;
const UINT24 = 0xff_ffff;
const UINT32 = 0xffff_ffff;
const UINT64 = (1n << 64n) - 1n;
const TWO_26 = 2 ** 26;
const TWO_32 = 2 ** 32;

function isUint(value: unknown, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= max;
}

function fastPathApplies(f: PlaceOrderFields): boolean {
  return orderWordFieldsFit(f) && optionalWordsFit(f) && namesNoBuilder(f);
}

/**
 * Range-checks the fields packed into the order word as `packOrderWord` does, with its errors,
 * without packing it when they fit: a caller can refuse an order before any key work is done.
 */
export function checkOrderWordFields(f: PlaceOrderFields): void {
  if (!orderWordFieldsFit(f)) packOrderWord(orderWordFieldsOf(f));
}

/** The fields packed into the uint88 order word are small numbers within their ranges. */
function orderWordFieldsFit(f: PlaceOrderFields): boolean {
  return (
    isUint(f.marketId, UINT16) &&
    isUint(f.sizeSteps, UINT32) &&
    f.sizeSteps >= 1 &&
    isUint(f.priceTicks, UINT24) &&
    (f.side === 0 || f.side === 1) &&
    (f.stpMode === 0 || f.stpMode === 1 || f.stpMode === 2) &&
    (f.orderType === 0 || f.orderType === 1) &&
    (f.timeInForce === 0 || f.timeInForce === 1 || f.timeInForce === 2 || f.timeInForce === 3)
  );
}

/** A zero builder id and fee are written as if absent: no header bit, a zero word, no fee word. */
function namesNoBuilder(f: PlaceOrderFields): boolean {
  return (f.builderId === undefined || f.builderId === 0) && (f.builderFeeBps === undefined || f.builderFeeBps === 0);
}

/** The client order id and time to live, when given, fit their uint64 and uint16 words. */
function optionalWordsFit(f: PlaceOrderFields): boolean {
  const id = f.clientOrderId;
  return (
    (id === undefined || (typeof id === 'bigint' && id >= 0n && id <= UINT64)) &&
    (f.ttlUnits === undefined || isUint(f.ttlUnits, UINT16))
  );
}

export function placeOrderFieldsHash(f: PlaceOrderFields, selectors: SelectorTable = SPEC_SELECTORS): Hex32 {
  return toHex(placeOrderFieldsHashBytes(f, selectors));
}

/**
 * The fast path's six words: selector, header, orderData, builderId (0), clientOrderId, ttlUnits (no
 * builder fee word). One buffer for every order, each call writing every byte a field can reach
 * (the rest stay zero): the keccak copies its input, so nothing keeps it. A fresh 192-byte array
 * per order was an off-heap allocation, cold between two frames; the native keccak's own `Buffer`
 * per digest used to take that cost back (session 41), the WebAssembly keccak has none.
 */
const orderWords = new Uint8Array(6 * WORD);
const orderView = new DataView(orderWords.buffer);

/** `placeOrderFieldsHash` as its 32 bytes (what a permit's struct hash takes). */
export function placeOrderFieldsHashBytes(f: PlaceOrderFields, selectors: SelectorTable = SPEC_SELECTORS): Uint8Array {
  if (!fastPathApplies(f)) return slowPath(f, selectors);
  const clientOrderId = f.clientOrderId ?? 0n;
  const ttl = f.ttlUnits ?? 0;
  const buf = orderWords;
  const view = orderView;
  buf.set(selectorWord(selectors.placeOrder), 0);
  buf[2 * WORD - 1] =
    HEADER_PERMIT | (clientOrderId !== 0n ? HEADER_CLIENT_ORDER_ID : 0) | (ttl !== 0 ? HEADER_TTL : 0);
  // orderData (uint88) = marketId << 70 | sizeSteps << 38 | priceTicks << 14 | flags << 6 | version 1 << 1,
  // as hi · 2^38 + lo with hi = marketId · 2^32 + sizeSteps (< 2^48) and lo < 2^38, both exact numbers.
  const flags =
    f.side |
    (f.postOnly ? 2 : 0) |
    (f.reduceOnly ? 4 : 0) |
    (f.stpMode << 3) |
    (f.orderType << 5) |
    (f.timeInForce << 6);
  const hi = f.marketId * TWO_32 + f.sizeSteps;
  const lo = f.priceTicks * 16_384 + flags * 64 + 2;
  const word = 3 * WORD;
  const top = Math.floor(hi / TWO_26); // bits 87..64 (< 2^22)
  buf[word - 11] = (top >>> 16) & 0xff;
  buf[word - 10] = (top >>> 8) & 0xff;
  buf[word - 9] = top & 0xff;
  view.setUint32(word - 8, (hi % TWO_26) * 64 + Math.floor(lo / TWO_32)); // bits 63..32
  view.setUint32(word - 4, lo % TWO_32); // bits 31..0
  // builderId: a zero word.
  view.setBigUint64(5 * WORD - 8, clientOrderId);
  view.setUint16(6 * WORD - 2, ttl);
  return keccak256(buf);
}

function slowPath(f: PlaceOrderFields, selectors: SelectorTable): Uint8Array {
  const input: { -readonly [K in keyof PlaceOrderHashInput]: PlaceOrderHashInput[K] } = {
    orderWord: packOrderWord(orderWordFieldsOf(f)),
  };
  if (f.builderId !== undefined) input.builderId = f.builderId;
  if (f.builderFeeBps !== undefined) input.builderFeeBps = f.builderFeeBps;
  if (f.clientOrderId !== undefined) input.clientOrderId = f.clientOrderId;
  if (f.ttlUnits !== undefined) input.ttlUnits = f.ttlUnits;
  return placeOrderHashBytes(input, selectors);
}

/** The order word's fields as `packOrderWord` takes them, its checks left to it. */
function orderWordFieldsOf(f: PlaceOrderFields): OrderWordFields {
  return {
    marketId: f.marketId,
    sizeSteps: BigInt(f.sizeSteps),
    priceTicks: BigInt(f.priceTicks),
    side: f.side as OrderWordFields['side'],
    postOnly: f.postOnly,
    reduceOnly: f.reduceOnly,
    stpMode: f.stpMode as OrderWordFields['stpMode'],
    orderType: f.orderType as OrderWordFields['orderType'],
    timeInForce: f.timeInForce as OrderWordFields['timeInForce'],
  };
}

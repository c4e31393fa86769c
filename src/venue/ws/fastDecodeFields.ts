import { normalizeDecimal, weiTextToDecimal } from '../../core/decimal.js';
import { isJsonObject, type JsonObject } from '../../core/jsonObject.js';
import type { EnvelopeMeta, FrameType } from '../schemas/wsFramesEnvelope.js';
import {
  type ChannelName,
  BOOK_DECIMAL_PATTERN,
  DECIMAL_PATTERN,
  MARKET_ID_MAX,
  MARKET_ID_PATTERN,
  NANOS_PATTERN,
  WEI_PATTERN,
} from '../schemas/wsFramesFields.js';

/**
 * Checks shared by the hot-path decoders. Each mirrors one zod rule in `src/venue/schemas/`
 * (same regexes, same bounds); `test/venue/ws/fastDecode.test.ts` holds them equal.
 */

export { isJsonObject, type JsonObject } from '../../core/jsonObject.js';

/** z.number().int().min(0): a safe integer >= 0. */
export function isNonNegativeInt(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

export function isWeiString(value: unknown): value is string {
  return typeof value === 'string' && WEI_PATTERN.test(value);
}

/** bookDecimalSchema: an orderbook level's decimal price or quantity. */
export function isBookDecimal(value: unknown): value is string {
  return typeof value === 'string' && BOOK_DECIMAL_PATTERN.test(value);
}

export function weiStringToDecimal(wei: string): string {
  return weiTextToDecimal(wei);
}

/** marketIdSchema: an integer 0..65535, or its canonical decimal string. Undefined if invalid. */
export function decodeMarketId(value: unknown): number | undefined {
  if (typeof value === 'number')
    return Number.isSafeInteger(value) && value >= 0 && value <= MARKET_ID_MAX ? value : undefined;
  if (typeof value === 'string' && MARKET_ID_PATTERN.test(value)) {
    const id = Number(value);
    return id <= MARKET_ID_MAX ? id : undefined;
  }
  return undefined;
}

/** envelopeTailShape; undefined when any field is malformed. */
export function decodeEnvelopeMeta(frame: JsonObject): EnvelopeMeta | undefined {
  const { worker_timestamp: ts, block_number: block, log_index: log, tx_hash: tx } = frame;
  if (typeof ts !== 'string' || !NANOS_PATTERN.test(ts)) return undefined;
  if (block !== undefined && !isNonNegativeInt(block)) return undefined;
  if (log !== undefined && !isNonNegativeInt(log)) return undefined;
  if (tx !== undefined && typeof tx !== 'string') return undefined;
  const meta: { workerTimestamp: bigint; blockNumber?: number; logIndex?: number; txHash?: string } = {
    workerTimestamp: BigInt(ts),
  };
  if (block !== undefined) meta.blockNumber = block;
  if (log !== undefined) meta.logIndex = log;
  if (tx !== undefined) meta.txHash = tx;
  return meta;
}

/** A channel frame's envelope, checked; `data` (and any other field) is left to the channel's decoder. */
export interface ChannelEnvelope {
  readonly frame: JsonObject;
  readonly meta: EnvelopeMeta;
  readonly type: FrameType;
  readonly data: unknown;
}

/** An object on `channel`, of type snapshot or update, with a well-formed envelope tail. */
export function decodeChannelEnvelope(frame: unknown, channel: ChannelName): ChannelEnvelope | undefined {
  if (!isJsonObject(frame) || frame.channel !== channel) return undefined;
  const type = frame.type;
  if (type !== 'snapshot' && type !== 'update') return undefined;
  const meta = decodeEnvelopeMeta(frame);
  return meta === undefined ? undefined : { frame, meta, type, data: frame.data };
}

/**
 * The decoded message: `meta`'s keys first, then the channel's, the order of the schemas'
 * `{ ...envelopeMeta(frame), channel, ... }`. `meta` must be fresh (decodeEnvelopeMeta makes one
 * per frame): the keys are added to it, not spread into a new object, because on Node 20 a spread
 * followed by more keys costs 1 to 3 µs, more than the rest of a private frame's decode.
 */
export function withEnvelope<M extends EnvelopeMeta>(meta: EnvelopeMeta, rest: Omit<M, keyof EnvelopeMeta>): M {
  return Object.assign(meta, rest) as M;
}

/** An optional field that is present but malformed. */
export const INVALID = Symbol('invalid');

/** zod's `.optional()`: absent (undefined) passes as undefined; anything else must decode. */
export function optional<T>(value: unknown, decode: (value: unknown) => T | undefined): T | undefined | typeof INVALID {
  if (value === undefined) return undefined;
  return decode(value) ?? INVALID;
}

/** idSchema: a non-empty string, or a safe integer >= 0, read as a string. */
export function decodeId(value: unknown): string | undefined {
  if (typeof value === 'string') return value.length >= 1 ? value : undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  return undefined;
}

/** sideSchema: 0/1, "0"/"1", "BUY"/"SELL" or "buy"/"sell". */
export function decodeSide(value: unknown): 'buy' | 'sell' | undefined {
  if (value === 0 || value === '0' || value === 'BUY' || value === 'buy') return 'buy';
  if (value === 1 || value === '1' || value === 'SELL' || value === 'sell') return 'sell';
  return undefined;
}

/** decimalSchema: a decimal string, normalised. */
export function decodeDecimal(value: unknown): string | undefined {
  return typeof value === 'string' && DECIMAL_PATTERN.test(value) ? normalizeDecimal(value, 'decimal') : undefined;
}

/** z.array(item): the decoded elements, or undefined when `data` is not an array or one element is refused. */
export function decodeList<T>(data: unknown, decode: (item: unknown) => T | undefined): T[] | undefined {
  if (!Array.isArray(data)) return undefined;
  const decoded: T[] = [];
  for (const item of data as unknown[]) {
    const value = decode(item);
    if (value === undefined) return undefined;
    decoded.push(value);
  }
  return decoded;
}

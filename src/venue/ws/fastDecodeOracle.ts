import { MARKET_ID_MAX, MARKET_ID_PATTERN, NANOS_PATTERN } from '../schemas/wsFramesFields.js';
import type { OracleMessage, OraclePrice } from '../schemas/wsFramesOracle.js';
import {
  isJsonObject,
  isNonNegativeInt,
  isWeiString,
  weiStringToDecimal,
  type JsonObject,
} from './fastDecodeFields.js';

/**
 * Hand-checked decoder for oracle frames, the per-block hot path: same result as
 * `oracleFrameSchema` (including which frames it refuses) without zod's per-field overhead.
 * Returns undefined for a malformed frame. Plain functions, one check each, no closure per call.
 */
export function fastDecodeOracle(frame: unknown): OracleMessage | undefined {
  if (!isOracleUpdate(frame)) return undefined;
  const { data, tx_hash: txHash, block_number: blockNumber, log_index: logIndex } = frame;
  if (typeof txHash !== 'string' || !isNonNegativeInt(blockNumber) || !isNonNegativeInt(logIndex)) return undefined;
  // The envelope's other fields (block, log index, hash) are required here and checked above.
  const workerTimestamp = frame.worker_timestamp;
  if (typeof workerTimestamp !== 'string' || !NANOS_PATTERN.test(workerTimestamp)) return undefined;
  if (!isJsonObject(data)) return undefined;
  const { prices: rawPrices, timestamp } = data;
  if (!isTimestamp(timestamp) || !isJsonObject(rawPrices)) return undefined;
  const prices = decodePrices(rawPrices);
  if (prices === undefined) return undefined;
  return oracleMessage(BigInt(workerTimestamp), prices, timestamp, txHash, blockNumber, logIndex);
}

/** The decoded message, its keys in one order whoever decoded the frame (this decoder or `scanHotFrame`). */
export function oracleMessage(
  workerTimestamp: bigint,
  prices: Map<number, OraclePrice>,
  timestamp: number,
  txHash: string,
  blockNumber: number,
  logIndex: number,
): OracleMessage {
  return { workerTimestamp, channel: 'oracle', type: 'update', prices, timestamp, txHash, blockNumber, logIndex };
}

/** An object on the oracle channel, of type update, with no market id (null or absent). */
function isOracleUpdate(frame: unknown): frame is JsonObject {
  if (!isJsonObject(frame) || frame.channel !== 'oracle' || frame.type !== 'update') return false;
  return frame.market_id === undefined || frame.market_id === null;
}

/** z.number().min(0): finite and not negative. */
function isTimestamp(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/** `data.prices`, keyed by market id; undefined when a key or a price is malformed. */
function decodePrices(raw: JsonObject): Map<number, OraclePrice> | undefined {
  const prices = new Map<number, OraclePrice>();
  for (const key of Object.keys(raw)) {
    // zod's record skips an own "__proto__" key; so do we, to stay equal.
    if (key === '__proto__') continue;
    const marketId = marketIdOfKey(key);
    if (marketId === undefined) return undefined;
    const price = decodePrice(raw[key]);
    if (price === undefined) return undefined;
    prices.set(marketId, price);
  }
  return prices;
}

/** oracleMarketKeySchema: a canonical decimal market id that fits in 16 bits. */
function marketIdOfKey(key: string): number | undefined {
  if (!MARKET_ID_PATTERN.test(key)) return undefined;
  const marketId = Number(key);
  return marketId <= MARKET_ID_MAX ? marketId : undefined;
}

/** One market's `{ index_price?, mark_price? }`, each an optional wei string; absent stays absent. */
function decodePrice(raw: unknown): OraclePrice | undefined {
  if (!isJsonObject(raw)) return undefined;
  const { index_price: index, mark_price: mark } = raw;
  if (index !== undefined && !isWeiString(index)) return undefined;
  if (mark !== undefined && !isWeiString(mark)) return undefined;
  return oraclePrice(
    index === undefined ? undefined : weiStringToDecimal(index),
    mark === undefined ? undefined : weiStringToDecimal(mark),
  );
}

/** One market's decoded prices, in one key order whoever decoded them; absent stays absent. */
export function oraclePrice(indexPrice: string | undefined, markPrice: string | undefined): OraclePrice {
  // Assigned, not spread: spreading conditional objects cost more than the rest of the decode.
  const decoded: { indexPrice?: string; markPrice?: string } = {};
  if (indexPrice !== undefined) decoded.indexPrice = indexPrice;
  if (markPrice !== undefined) decoded.markPrice = markPrice;
  return decoded;
}

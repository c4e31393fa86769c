import { MARKET_ID_MAX, MARKET_ID_PATTERN } from '../schemas/wsFramesFields.js';
import type { OracleMessage, OraclePrice } from '../schemas/wsFramesOracle.js';
import {
  decodeEnvelopeMeta,
  isJsonObject,
  isNonNegativeInt,
  isWeiString,
  weiStringToDecimal,
} from './fastDecodeFields.js';

/**
 * Hand-checked decoder for oracle frames, the per-block hot path: same result as
 * `oracleFrameSchema` (including which frames it refuses) without zod's per-field overhead.
 * Returns undefined for a malformed frame.
 */
export function fastDecodeOracle(frame: unknown): OracleMessage | undefined {
  if (!isJsonObject(frame)) return undefined;
  if (frame.channel !== 'oracle' || frame.type !== 'update') return undefined;
  if (frame.market_id !== undefined && frame.market_id !== null) return undefined;
  const { data, tx_hash: txHash, block_number: blockNumber, log_index: logIndex } = frame;
  if (typeof txHash !== 'string' || !isNonNegativeInt(blockNumber) || !isNonNegativeInt(logIndex)) return undefined;
  if (!isJsonObject(data)) return undefined;
  const { prices: rawPrices, timestamp } = data;
  if (typeof timestamp !== 'number' || !Number.isFinite(timestamp) || timestamp < 0) return undefined;
  if (!isJsonObject(rawPrices)) return undefined;
  const meta = decodeEnvelopeMeta(frame);
  if (meta === undefined) return undefined;

  const prices = new Map<number, OraclePrice>();
  for (const key of Object.keys(rawPrices)) {
    // zod's record skips an own "__proto__" key; so do we, to stay equal.
    if (key === '__proto__') continue;
    if (!MARKET_ID_PATTERN.test(key) || Number(key) > MARKET_ID_MAX) return undefined;
    const price = rawPrices[key];
    if (!isJsonObject(price)) return undefined;
    const { index_price: index, mark_price: mark } = price;
    if (index !== undefined && !isWeiString(index)) return undefined;
    if (mark !== undefined && !isWeiString(mark)) return undefined;
    // Assigned, not spread: spreading conditional objects cost more than the rest of the decode.
    const decoded: { indexPrice?: string; markPrice?: string } = {};
    if (index !== undefined) decoded.indexPrice = weiStringToDecimal(index);
    if (mark !== undefined) decoded.markPrice = weiStringToDecimal(mark);
    prices.set(Number(key), decoded);
  }
  return {
    workerTimestamp: meta.workerTimestamp,
    channel: 'oracle',
    type: 'update',
    prices,
    timestamp,
    txHash,
    blockNumber,
    logIndex,
  };
}

import { UINT32_MAX } from '../schemas/wsFramesFields.js';
import { WireOrderbookLevel } from '../schemas/wireOrderbookLevel.js';
import type { FrameType } from '../schemas/wsFramesEnvelope.js';
import type { OrderbookLevel, OrderbookMessage } from '../schemas/wsFramesOrderbook.js';
import {
  decodeEnvelopeMeta,
  decodeMarketId,
  isBookDecimal,
  isJsonObject,
  isNonNegativeInt,
  type JsonObject,
} from './fastDecodeFields.js';

/**
 * Hand-checked decoder for orderbook frames: same result as `orderbookFrameSchema` (including
 * which frames it refuses). Returns undefined for a malformed frame.
 */
export function fastDecodeOrderbook(frame: unknown): OrderbookMessage | undefined {
  if (!isJsonObject(frame)) return undefined;
  const { channel, type, data } = frame;
  if (channel !== 'orderbook' || (type !== 'snapshot' && type !== 'update')) return undefined;
  if (!isJsonObject(data)) return undefined;
  const marketId = agreedMarketId(frame.market_id, data.market_id);
  if (marketId === undefined) return undefined;
  const checks = decodeChecks(frame, data);
  if (checks === undefined) return undefined;
  const bids = decodeLevels(data.bids);
  const asks = decodeLevels(data.asks);
  if (bids === undefined || asks === undefined) return undefined;
  const meta = decodeEnvelopeMeta(frame);
  if (meta === undefined) return undefined;
  return orderbookMessage({
    workerTimestamp: meta.workerTimestamp,
    type,
    marketId,
    bids,
    asks,
    blockNumber: meta.blockNumber,
    logIndex: meta.logIndex,
    txHash: meta.txHash,
    checksum: checks.checksum,
    levelCount: checks.levelCount,
  });
}

/** What an orderbook message is made of, checked; an optional part the frame lacked is undefined. */
export interface OrderbookParts {
  readonly workerTimestamp: bigint;
  readonly type: FrameType;
  readonly marketId: number;
  readonly bids: OrderbookLevel[];
  readonly asks: OrderbookLevel[];
  readonly blockNumber: number | undefined;
  readonly logIndex: number | undefined;
  readonly txHash: string | undefined;
  readonly checksum: number | undefined;
  readonly levelCount: number | undefined;
}

/**
 * The decoded message, its keys in one order whoever decoded the frame (this decoder or the
 * text scanner, `scanHotFrame`): absent parts stay absent, not undefined.
 */
export function orderbookMessage(parts: OrderbookParts): OrderbookMessage {
  const message: { -readonly [K in keyof OrderbookMessage]: OrderbookMessage[K] } = {
    workerTimestamp: parts.workerTimestamp,
    channel: 'orderbook',
    type: parts.type,
    marketId: parts.marketId,
    bids: parts.bids,
    asks: parts.asks,
  };
  if (parts.blockNumber !== undefined) message.blockNumber = parts.blockNumber;
  if (parts.logIndex !== undefined) message.logIndex = parts.logIndex;
  if (parts.txHash !== undefined) message.txHash = parts.txHash;
  if (parts.checksum !== undefined) message.checksum = parts.checksum;
  if (parts.levelCount !== undefined) message.levelCount = parts.levelCount;
  return message;
}

/**
 * The envelope's `checksum` (or, the older reading, `data.checksum`; the envelope's wins) and
 * `level_count`, each optional; undefined when one that is present is malformed.
 */
function decodeChecks(
  frame: JsonObject,
  data: JsonObject,
): { checksum: number | undefined; levelCount: number | undefined } | undefined {
  const { checksum: outer, level_count: levelCount } = frame;
  const inner = data.checksum;
  if (outer !== undefined && !isChecksum(outer)) return undefined;
  if (inner !== undefined && !isChecksum(inner)) return undefined;
  if (levelCount !== undefined && !isNonNegativeInt(levelCount)) return undefined;
  return { checksum: outer ?? inner, levelCount };
}

function isChecksum(value: unknown): value is number {
  return isNonNegativeInt(value) && value <= UINT32_MAX;
}

/** The market id of the envelope or of data (either may be absent, not both); both must agree. */
function agreedMarketId(envelope: unknown, inner: unknown): number | undefined {
  if (inner === undefined) return envelope === undefined ? undefined : decodeMarketId(envelope);
  const marketId = decodeMarketId(inner);
  if (marketId === undefined || envelope === undefined) return marketId;
  return decodeMarketId(envelope) === marketId ? marketId : undefined;
}

function decodeLevels(raw: unknown): OrderbookLevel[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const levels: OrderbookLevel[] = new Array<OrderbookLevel>(raw.length);
  for (let i = 0; i < raw.length; i++) {
    const level: unknown = raw[i];
    if (!isJsonObject(level)) return undefined;
    const { price, quantity, order_count: orderCount } = level;
    if (!isBookDecimal(price) || !isBookDecimal(quantity) || !isNonNegativeInt(orderCount)) return undefined;
    levels[i] = new WireOrderbookLevel(price, quantity, orderCount);
  }
  return levels;
}

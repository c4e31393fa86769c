import { UINT32_MAX } from '../schemas/wsFramesFields.js';
import { WireOrderbookLevel } from '../schemas/wireOrderbookLevel.js';
import type { OrderbookLevel, OrderbookMessage } from '../schemas/wsFramesOrderbook.js';
import { decodeEnvelopeMeta, decodeMarketId, isJsonObject, isNonNegativeInt, isWeiString } from './fastDecodeFields.js';

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
  const { checksum } = data;
  if (checksum !== undefined && !(isNonNegativeInt(checksum) && checksum <= UINT32_MAX)) return undefined;
  const bids = decodeLevels(data.bids);
  const asks = decodeLevels(data.asks);
  if (bids === undefined || asks === undefined) return undefined;
  const meta = decodeEnvelopeMeta(frame);
  if (meta === undefined) return undefined;
  const message: { -readonly [K in keyof OrderbookMessage]: OrderbookMessage[K] } = {
    workerTimestamp: meta.workerTimestamp,
    channel: 'orderbook',
    type,
    marketId,
    bids,
    asks,
  };
  if (meta.blockNumber !== undefined) message.blockNumber = meta.blockNumber;
  if (meta.logIndex !== undefined) message.logIndex = meta.logIndex;
  if (meta.txHash !== undefined) message.txHash = meta.txHash;
  if (checksum !== undefined) message.checksum = checksum;
  return message;
}

/** The data's market id, when valid and the envelope's (optional) market id names the same market. */
function agreedMarketId(envelope: unknown, inner: unknown): number | undefined {
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
    if (!isWeiString(price) || !isWeiString(quantity) || !isNonNegativeInt(orderCount)) return undefined;
    levels[i] = new WireOrderbookLevel(price, quantity, orderCount);
  }
  return levels;
}

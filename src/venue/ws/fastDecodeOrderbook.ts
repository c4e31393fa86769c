import { weiTextToDecimal } from '../../core/decimal.js';
import { UINT32_MAX } from '../schemas/wsFramesFields.js';
import type { OrderbookLevel, OrderbookMessage } from '../schemas/wsFramesOrderbook.js';
import {
  decodeEnvelopeMeta,
  decodeMarketId,
  isJsonObject,
  isNonNegativeInt,
  isWeiString,
} from './fastDecodeFields.js';

/**
 * Hand-checked decoder for orderbook frames: same result as `orderbookFrameSchema` (including
 * which frames it refuses). Returns undefined for a malformed frame.
 */
export function fastDecodeOrderbook(frame: unknown): OrderbookMessage | undefined {
  if (!isJsonObject(frame)) return undefined;
  const { channel, type, data } = frame;
  if (channel !== 'orderbook' || (type !== 'snapshot' && type !== 'update')) return undefined;
  let envelopeMarketId: number | undefined;
  if (frame.market_id !== undefined) {
    envelopeMarketId = decodeMarketId(frame.market_id);
    if (envelopeMarketId === undefined) return undefined;
  }
  if (!isJsonObject(data)) return undefined;
  const marketId = decodeMarketId(data.market_id);
  if (marketId === undefined) return undefined;
  if (envelopeMarketId !== undefined && envelopeMarketId !== marketId) return undefined;
  const { checksum } = data;
  if (checksum !== undefined && !(isNonNegativeInt(checksum) && checksum <= UINT32_MAX)) return undefined;
  const bids = decodeLevels(data.bids);
  const asks = decodeLevels(data.asks);
  if (bids === undefined || asks === undefined) return undefined;
  const meta = decodeEnvelopeMeta(frame);
  if (meta === undefined) return undefined;
  return {
    ...meta,
    channel: 'orderbook',
    type,
    marketId,
    bids,
    asks,
    ...(checksum === undefined ? {} : { checksum }),
  };
}

function decodeLevels(raw: unknown): OrderbookLevel[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const levels: OrderbookLevel[] = new Array<OrderbookLevel>(raw.length);
  for (let i = 0; i < raw.length; i++) {
    const level: unknown = raw[i];
    if (!isJsonObject(level)) return undefined;
    const { price, quantity, order_count: orderCount } = level;
    if (!isWeiString(price) || !isWeiString(quantity) || !isNonNegativeInt(orderCount)) return undefined;
    levels[i] = {
      price: weiTextToDecimal(price),
      quantity: weiTextToDecimal(quantity),
      priceWei: BigInt(price),
      quantityWei: BigInt(quantity),
      orderCount,
    };
  }
  return levels;
}

import type { Trade, TradesMessage } from '../schemas/wsFramesTrades.js';
import {
  decodeDecimal,
  decodeChannelEnvelope,
  decodeList,
  decodeId,
  decodeMarketId,
  decodeSide,
  INVALID,
  isJsonObject,
  optional,
  type JsonObject,
  withEnvelope,
} from './fastDecodeFields.js';

/**
 * Hand-checked decoder for trades frames (a replay drives every recorded trade through the
 * client's decoder): same result as `tradesFrameSchema` (including which frames it refuses)
 * without zod's per-field overhead. Returns undefined for a malformed frame.
 */
export function fastDecodeTrades(frame: unknown): TradesMessage | undefined {
  const envelope = decodeChannelEnvelope(frame, 'trades');
  if (envelope === undefined) return undefined;
  const { meta, type } = envelope;
  const envelopeMarket = optional(envelope.frame.market_id, decodeMarketId);
  if (envelopeMarket === INVALID) return undefined;
  const trades = decodeTradeList(envelope.data, envelopeMarket);
  if (trades === undefined) return undefined;
  const marketId = envelopeMarket ?? trades[0]?.marketId;
  return withEnvelope<TradesMessage>(
    meta,
    marketId === undefined ? { channel: 'trades', type, trades } : { channel: 'trades', type, marketId, trades },
  );
}

/** `data`: one trade or a list of them (the union tries the object first). */
function decodeTradeList(data: unknown, envelopeMarket: number | undefined): Trade[] | undefined {
  if (isJsonObject(data)) {
    const trade = decodeTrade(data, envelopeMarket);
    return trade === undefined ? undefined : [trade];
  }
  return decodeList(data, (item) => (isJsonObject(item) ? decodeTrade(item, envelopeMarket) : undefined));
}

/** tradeWireSchema, then the transform's field names; undefined when a field is malformed. */
function decodeTrade(t: JsonObject, envelopeMarket: number | undefined): Trade | undefined {
  const id = decodeId(t.id);
  const makerOrderId = decodeId(t.maker_order_id);
  const takerOrderId = decodeId(t.taker_order_id);
  const ownMarket = optional(t.market_id, decodeMarketId);
  const makerSide = decodeSide(t.maker_side);
  const price = decodeDecimal(t.price);
  const size = decodeDecimal(t.size);
  const feeMaker = optional(t.fee_maker, decodeDecimal);
  const feeTaker = optional(t.fee_taker, decodeDecimal);
  const feeLiquidation = optional(t.fee_liquidation, decodeDecimal);
  const { maker, taker } = t;
  if (id === undefined || makerOrderId === undefined || takerOrderId === undefined) return undefined;
  if (ownMarket === INVALID || feeMaker === INVALID || feeTaker === INVALID || feeLiquidation === INVALID)
    return undefined;
  if (typeof maker !== 'string' || typeof taker !== 'string') return undefined;
  if (makerSide === undefined || price === undefined || size === undefined) return undefined;
  const marketId = ownMarket ?? envelopeMarket;
  return {
    id,
    ...(marketId === undefined ? {} : { marketId }),
    makerOrderId,
    takerOrderId,
    maker,
    taker,
    makerSide,
    price,
    size,
    ...(feeMaker === undefined ? {} : { feeMaker }),
    ...(feeTaker === undefined ? {} : { feeTaker }),
    ...(feeLiquidation === undefined ? {} : { feeLiquidation }),
  };
}

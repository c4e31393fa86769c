import type { FillRecord, FillsMessage } from '../schemas/wsFramesPrivate.js';
import {
  decodeChannelEnvelope,
  decodeDecimal,
  decodeId,
  decodeMarketId,
  decodeSide,
  isJsonObject,
  withEnvelope,
} from './fastDecodeFields.js';
import { copyUndeclaredKeys, setOptional } from './fastDecodeLooseRecord.js';
import {
  decodeFillTime,
  decodeLiquidityIndicator,
  decodeNonEmptyString,
  setClientOrderId,
} from './fastDecodePrivateFields.js';

/**
 * Hand-checked decoder for fills frames (one fill each): the same message as `fillsFrameSchema`,
 * key order included, and undefined for every frame it refuses.
 */
export function fastDecodeFills(frame: unknown): FillsMessage | undefined {
  const envelope = decodeChannelEnvelope(frame, 'fills');
  if (envelope === undefined) return undefined;
  const fill = decodeFill(envelope.data);
  if (fill === undefined) return undefined;
  return withEnvelope<FillsMessage>(envelope.meta, { channel: 'fills', type: envelope.type, fill });
}

/** fillRecordWireSchema's keys, in its order. */
const DECLARED: ReadonlySet<string> = new Set([
  'id',
  'market_id',
  'order_id',
  'side',
  'price',
  'size',
  'fee',
  'time',
  'liquidity_indicator',
  'client_order_id',
  'realized_pnl',
]);

function decodeFill(raw: unknown): FillRecord | undefined {
  if (!isJsonObject(raw)) return undefined;
  const id = decodeId(raw.id);
  const marketId = decodeMarketId(raw.market_id);
  const orderId = decodeNonEmptyString(raw.order_id);
  const side = decodeSide(raw.side);
  const price = decodeDecimal(raw.price);
  const size = decodeDecimal(raw.size);
  const fee = decodeDecimal(raw.fee);
  const time = decodeFillTime(raw.time);
  const liquidity = decodeLiquidityIndicator(raw.liquidity_indicator);
  if (id === undefined || marketId === undefined || orderId === undefined || side === undefined) return undefined;
  if (price === undefined || size === undefined || fee === undefined) return undefined;
  if (time === undefined || liquidity === undefined) return undefined;
  const fill: FillRecord = {
    id,
    market_id: marketId,
    order_id: orderId,
    side,
    price,
    size,
    fee,
    time,
    liquidity_indicator: liquidity,
  };
  if (!setClientOrderId(fill, raw) || !setOptional(fill, raw, 'realized_pnl', decodeDecimal)) return undefined;
  copyUndeclaredKeys(fill, raw, DECLARED);
  return fill;
}

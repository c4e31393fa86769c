import type { PositionRecord, PositionsMessage } from '../schemas/wsFramesPrivate.js';
import {
  decodeChannelEnvelope,
  decodeDecimal,
  decodeList,
  decodeMarketId,
  decodeSide,
  isJsonObject,
  type JsonObject,
  withEnvelope,
} from './fastDecodeFields.js';
import { copyUndeclaredKeys, setOptional } from './fastDecodeLooseRecord.js';
import { decodeAddress, decodeLeverage, decodeMarginMode } from './fastDecodePrivateFields.js';

/**
 * Hand-checked decoder for positions frames: the same message as `positionsFrameSchema`, key
 * order included, and undefined for every frame it refuses.
 */
export function fastDecodePositions(frame: unknown): PositionsMessage | undefined {
  const envelope = decodeChannelEnvelope(frame, 'positions');
  if (envelope === undefined) return undefined;
  const positions = decodeList(envelope.data, decodePosition);
  if (positions === undefined) return undefined;
  return withEnvelope<PositionsMessage>(envelope.meta, { channel: 'positions', type: envelope.type, positions });
}

/** positionRecordWireSchema's keys, in its order. */
const DECLARED: ReadonlySet<string> = new Set([
  'market_id',
  'size',
  'side',
  'account',
  'margin_mode',
  'isolated_usdc_balance',
  'leverage',
  'avg_entry_price',
]);

function decodePosition(raw: unknown): PositionRecord | undefined {
  if (!isJsonObject(raw)) return undefined;
  const marketId = decodeMarketId(raw.market_id);
  const size = decodeDecimal(raw.size);
  if (marketId === undefined || size === undefined) return undefined;
  const position: PositionRecord = { market_id: marketId, size };
  if (!setOptionalFields(position, raw)) return undefined;
  copyUndeclaredKeys(position, raw, DECLARED);
  return position;
}

function setOptionalFields(position: JsonObject, raw: JsonObject): boolean {
  return (
    setOptional(position, raw, 'side', decodeSide) &&
    setOptional(position, raw, 'account', decodeAddress) &&
    setOptional(position, raw, 'margin_mode', decodeMarginMode) &&
    setOptional(position, raw, 'isolated_usdc_balance', decodeDecimal) &&
    setOptional(position, raw, 'leverage', decodeLeverage) &&
    setOptional(position, raw, 'avg_entry_price', decodeDecimal)
  );
}

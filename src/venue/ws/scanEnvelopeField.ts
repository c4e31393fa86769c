import { type FrameTextCursor, NOT_READ } from './frameTextCursor.js';
import { marketIdValue, onceChecksum, onceUint } from './scanFrameValues.js';
import type { HotFrameFields } from './hotFrameFields.js';
import { scanOracleData } from './scanOracleData.js';
import { scanOrderbookData } from './scanOrderbookData.js';

/**
 * Reads the value of one envelope key of an orderbook or oracle frame into `fields`. False when
 * the key is not one of theirs, is repeated (JSON.parse would keep the last; the scanner does not
 * guess), or its value is not in the plain spelling the scanner reads: the frame then goes the
 * JSON.parse way. `data` is read as the channel's, so `channel` must come before it (as the venue
 * and the simulator send it).
 */
export function scanEnvelopeField(cursor: FrameTextCursor, key: string, fields: HotFrameFields): boolean {
  const read = ENVELOPE_READERS.get(key);
  return read !== undefined && read(cursor, fields);
}

type FieldReader = (cursor: FrameTextCursor, fields: HotFrameFields) => boolean;

const ENVELOPE_READERS = new Map<string, FieldReader>([
  ['channel', readChannel],
  ['type', readType],
  ['method', readMethod],
  ['market_id', readMarketId],
  ['data', readData],
  ['level_count', (cursor, fields) => (fields.levelCount = onceUint(cursor, fields.levelCount)) !== NOT_READ],
  ['checksum', (cursor, fields) => (fields.checksum = onceChecksum(cursor, fields.checksum)) !== NOT_READ],
  ['block_number', (cursor, fields) => (fields.blockNumber = onceUint(cursor, fields.blockNumber)) !== NOT_READ],
  ['log_index', (cursor, fields) => (fields.logIndex = onceUint(cursor, fields.logIndex)) !== NOT_READ],
  ['tx_hash', readTxHash],
  ['worker_timestamp', readWorkerTimestamp],
]);

function readChannel(cursor: FrameTextCursor, fields: HotFrameFields): boolean {
  if (fields.channel !== undefined) return false;
  fields.channel = cursor.take('"orderbook"') ? 'orderbook' : cursor.take('"oracle"') ? 'oracle' : undefined;
  return fields.channel !== undefined;
}

function readType(cursor: FrameTextCursor, fields: HotFrameFields): boolean {
  if (fields.type !== undefined) return false;
  fields.type = cursor.take('"update"') ? 'update' : cursor.take('"snapshot"') ? 'snapshot' : undefined;
  return fields.type !== undefined;
}

/** Both decoders ignore `method` whatever it holds; the scanner reads only a plain string there. */
function readMethod(cursor: FrameTextCursor, fields: HotFrameFields): boolean {
  if (fields.method !== undefined) return false;
  fields.method = cursor.plainString();
  return fields.method !== undefined;
}

function readMarketId(cursor: FrameTextCursor, fields: HotFrameFields): boolean {
  if (fields.marketId !== undefined) return false;
  if (cursor.take('null')) {
    fields.marketId = null;
    return true;
  }
  const marketId = marketIdValue(cursor);
  fields.marketId = marketId;
  return marketId !== NOT_READ;
}

function readData(cursor: FrameTextCursor, fields: HotFrameFields): boolean {
  if (fields.data) return false;
  fields.data = true;
  if (fields.channel === 'orderbook') return scanOrderbookData(cursor, fields);
  if (fields.channel === 'oracle') return scanOracleData(cursor, fields);
  return false;
}

function readTxHash(cursor: FrameTextCursor, fields: HotFrameFields): boolean {
  if (fields.txHash !== undefined) return false;
  fields.txHash = cursor.plainString();
  return fields.txHash !== undefined;
}

/** NANOS_PATTERN, `^\d{1,30}$`. */
function readWorkerTimestamp(cursor: FrameTextCursor, fields: HotFrameFields): boolean {
  if (fields.workerTimestamp !== undefined) return false;
  fields.workerTimestamp = cursor.digitString(1, 30);
  return fields.workerTimestamp !== undefined;
}

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
  // A switch compares the key with each name (length first), cheaper than hashing it for a Map.
  switch (key) {
    case 'channel':
      return readChannel(cursor, fields);
    case 'type':
      return readType(cursor, fields);
    case 'method':
      return readMethod(cursor, fields);
    case 'market_id':
      return readMarketId(cursor, fields);
    case 'data':
      return readData(cursor, fields);
    case 'level_count':
      return (fields.levelCount = onceUint(cursor, fields.levelCount)) !== NOT_READ;
    case 'checksum':
      return (fields.checksum = onceChecksum(cursor, fields.checksum)) !== NOT_READ;
    case 'block_number':
      return (fields.blockNumber = onceUint(cursor, fields.blockNumber)) !== NOT_READ;
    case 'log_index':
      return (fields.logIndex = onceUint(cursor, fields.logIndex)) !== NOT_READ;
    case 'tx_hash':
      return readTxHash(cursor, fields);
    case 'worker_timestamp':
      return readWorkerTimestamp(cursor, fields);
    default:
      return false;
  }
}

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

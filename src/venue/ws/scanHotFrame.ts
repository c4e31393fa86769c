import type { OracleMessage } from '../schemas/wsFramesOracle.js';
import type { OrderbookMessage } from '../schemas/wsFramesOrderbook.js';
import { orderbookMessage } from './fastDecodeOrderbook.js';
import { oracleMessage } from './fastDecodeOracle.js';
import { FrameTextCursor } from './frameTextCursor.js';
import { HotFrameFields } from './hotFrameFields.js';
import { scanEnvelopeField } from './scanEnvelopeField.js';

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const COMMA = 0x2c;

/**
 * The two hot frames, orderbook and oracle data, decoded straight from their text: one pass over
 * it, no JSON.parse and no parsed object in between (the parse alone cost as much as the ws_ingest
 * target allows for the whole path). The result equals what JSON.parse and the fast decoder give,
 * key order and lazy levels included (a property test holds them equal). It reads only the plain
 * spelling the venue and the simulator send; anything else (whitespace, escapes, another key,
 * numbers written otherwise, a key twice, `data` before `channel`) answers undefined, and the
 * caller decodes the frame the JSON.parse way, which decides it as it always did. So undefined
 * means "not read here", never "malformed"; a frame is refused only by the JSON.parse way.
 * `oracleMarkets` (when given) narrows an oracle frame's decoded prices to those markets, the
 * others checked all the same (see `decodeServerFrame`).
 */
export function scanHotFrame(
  text: string,
  oracleMarkets?: ReadonlySet<number>,
): OrderbookMessage | OracleMessage | undefined {
  const cursor = new FrameTextCursor(text);
  const fields = new HotFrameFields(oracleMarkets);
  if (!cursor.takeChar(OPEN_BRACE)) return undefined;
  do {
    const key = cursor.key();
    if (key === undefined || !scanEnvelopeField(cursor, key, fields)) return undefined;
  } while (cursor.takeChar(COMMA));
  if (!cursor.takeChar(CLOSE_BRACE) || !cursor.atEnd()) return undefined;
  return fields.channel === 'orderbook' ? toOrderbook(fields) : toOracle(fields);
}

/** fastDecodeOrderbook's rules on what the envelope must hold; the values are checked as read. */
function toOrderbook(fields: HotFrameFields): OrderbookMessage | undefined {
  const { type, workerTimestamp, bids, asks, marketId: envelopeId, dataMarketId } = fields;
  if (type === undefined || workerTimestamp === undefined || bids === undefined || asks === undefined) return undefined;
  // A market id in data or the envelope (null is none of them), the same when in both.
  if (envelopeId === null || (envelopeId === undefined && dataMarketId === undefined)) return undefined;
  if (envelopeId !== undefined && dataMarketId !== undefined && envelopeId !== dataMarketId) return undefined;
  return orderbookMessage({
    workerTimestamp: nanosOf(workerTimestamp),
    type,
    marketId: dataMarketId ?? envelopeId ?? 0,
    bids,
    asks,
    blockNumber: fields.blockNumber,
    logIndex: fields.logIndex,
    txHash: fields.txHash,
    checksum: fields.checksum ?? fields.dataChecksum,
    levelCount: fields.levelCount,
  });
}

/**
 * fastDecodeOracle's rules: an update with no market id and the block's fields. `level_count`
 * and `checksum` are an orderbook's; on an oracle frame the scanner leaves them to the JSON.parse way.
 */
function toOracle(fields: HotFrameFields): OracleMessage | undefined {
  const { channel, type, marketId, prices, timestamp, txHash, blockNumber, logIndex, workerTimestamp } = fields;
  if (channel !== 'oracle' || type !== 'update' || typeof marketId === 'number') return undefined;
  if (fields.levelCount !== undefined || fields.checksum !== undefined) return undefined;
  if (prices === undefined || timestamp === undefined || txHash === undefined) return undefined;
  if (blockNumber === undefined || logIndex === undefined || workerTimestamp === undefined) return undefined;
  return oracleMessage(nanosOf(workerTimestamp), prices, timestamp, txHash, blockNumber, logIndex);
}

/**
 * BigInt of the worker timestamp's digits, remembered for the next frame: the frames of one block
 * (its oracle update, each market's book) carry the same timestamp, so most frames repeat the
 * last one (seven in ten of the simulator's), and the conversion cost a twentieth of a frame.
 */
let lastNanosText = '';
let lastNanos = 0n;

function nanosOf(digits: string): bigint {
  if (digits !== lastNanosText) {
    lastNanos = BigInt(digits);
    lastNanosText = digits;
  }
  return lastNanos;
}

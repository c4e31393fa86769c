import { MARKET_ID_MAX } from '../schemas/wsFramesFields.js';
import type { OraclePrice } from '../schemas/wsFramesOracle.js';
import { type FrameTextCursor, NOT_READ } from './frameTextCursor.js';
import { weiStringToDecimal } from './fastDecodeFields.js';
import { oraclePrice } from './fastDecodeOracle.js';
import type { HotFrameFields } from './hotFrameFields.js';

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const COMMA = 0x2c;
const COLON = 0x3a;
const ZERO = 0x30;
/** WEI_PATTERN, `^\d{1,78}$`. */
const WEI_DIGITS = 78;

/**
 * An oracle frame's `data` (`prices` and `timestamp`, in either order, each once) into `fields`;
 * false for anything else, which the JSON.parse way then decides.
 */
export function scanOracleData(cursor: FrameTextCursor, fields: HotFrameFields): boolean {
  if (!cursor.takeChar(OPEN_BRACE)) return false;
  do {
    if (!readDataField(cursor, fields)) return false;
  } while (cursor.takeChar(COMMA));
  return cursor.takeChar(CLOSE_BRACE);
}

function readDataField(cursor: FrameTextCursor, fields: HotFrameFields): boolean {
  if (cursor.take('"prices":')) {
    if (fields.prices !== undefined) return false;
    fields.prices = scanPrices(cursor);
    return fields.prices !== undefined;
  }
  // z.number().min(0) takes any non-negative number; the scanner reads integers, the form sent.
  if (!cursor.take('"timestamp":') || fields.timestamp !== undefined) return false;
  fields.timestamp = cursor.uint();
  return fields.timestamp !== NOT_READ;
}

/**
 * `data.prices`, keyed by canonical market id. The keys must come in ascending order: an object's
 * integer keys are enumerated that way, so the fast decoder's Map is in that order whatever the
 * text's; keys sent in another order (or twice) go the JSON.parse way.
 */
function scanPrices(cursor: FrameTextCursor): Map<number, OraclePrice> | undefined {
  if (!cursor.takeChar(OPEN_BRACE)) return undefined;
  const prices = new Map<number, OraclePrice>();
  if (cursor.takeChar(CLOSE_BRACE)) return prices;
  let previous = -1;
  do {
    const key = cursor.digitString(1, 5);
    if (key === undefined || (key.length > 1 && key.charCodeAt(0) === ZERO)) return undefined;
    const marketId = Number(key);
    if (marketId > MARKET_ID_MAX || marketId <= previous || !cursor.takeChar(COLON)) return undefined;
    const price = scanPrice(cursor);
    if (price === undefined) return undefined;
    prices.set(marketId, price);
    previous = marketId;
  } while (cursor.takeChar(COMMA));
  return cursor.takeChar(CLOSE_BRACE) ? prices : undefined;
}

interface WeiPair {
  index: string | undefined;
  mark: string | undefined;
}

/** `{ index_price?, mark_price? }` in either order, each an integer wei string, each once. */
function scanPrice(cursor: FrameTextCursor): OraclePrice | undefined {
  if (!cursor.takeChar(OPEN_BRACE)) return undefined;
  const wei: WeiPair = { index: undefined, mark: undefined };
  if (!cursor.takeChar(CLOSE_BRACE)) {
    do {
      if (!readWei(cursor, wei)) return undefined;
    } while (cursor.takeChar(COMMA));
    if (!cursor.takeChar(CLOSE_BRACE)) return undefined;
  }
  const { index, mark } = wei;
  return oraclePrice(
    index === undefined ? undefined : weiStringToDecimal(index),
    mark === undefined ? undefined : weiStringToDecimal(mark),
  );
}

function readWei(cursor: FrameTextCursor, wei: WeiPair): boolean {
  if (cursor.take('"mark_price":')) {
    if (wei.mark !== undefined) return false;
    wei.mark = cursor.digitString(1, WEI_DIGITS);
    return wei.mark !== undefined;
  }
  if (!cursor.take('"index_price":') || wei.index !== undefined) return false;
  wei.index = cursor.digitString(1, WEI_DIGITS);
  return wei.index !== undefined;
}

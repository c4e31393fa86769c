import { weiDigitsToDecimal } from '../../core/decimal.js';
import { MARKET_ID_MAX } from '../schemas/wsFramesFields.js';
import type { OraclePrice } from '../schemas/wsFramesOracle.js';
import { type FrameTextCursor, NOT_READ } from './frameTextCursor.js';
import { oraclePrice } from './fastDecodeOracle.js';
import type { HotFrameFields } from './hotFrameFields.js';

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const COMMA = 0x2c;
const COLON = 0x3a;
const ZERO = 0x30;

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
    fields.prices = scanPrices(cursor, fields.oracleMarkets);
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
 * text's; keys sent in another order (or twice) go the JSON.parse way. A market outside `wanted`
 * (when given) is checked the same way and left out: no one would read its prices.
 */
function scanPrices(
  cursor: FrameTextCursor,
  wanted: ReadonlySet<number> | undefined,
): Map<number, OraclePrice> | undefined {
  if (!cursor.takeChar(OPEN_BRACE)) return undefined;
  const prices = new Map<number, OraclePrice>();
  if (cursor.takeChar(CLOSE_BRACE)) return prices;
  let previous = -1;
  do {
    const key = cursor.digitString(1, 5);
    if (key === undefined || (key.length > 1 && key.charCodeAt(0) === ZERO)) return undefined;
    const marketId = Number(key);
    if (marketId > MARKET_ID_MAX || marketId <= previous || !cursor.takeChar(COLON)) return undefined;
    if (wanted !== undefined && !wanted.has(marketId)) {
      if (!skipPrice(cursor)) return undefined;
    } else {
      const price = scanPrice(cursor);
      if (price === undefined) return undefined;
      prices.set(marketId, price);
    }
    previous = marketId;
  } while (cursor.takeChar(COMMA));
  return cursor.takeChar(CLOSE_BRACE) ? prices : undefined;
}

const WEI = String.raw`"\d{1,78}"`;
/**
 * One market's prices, exactly `{}`, `{"mark_price":"…"}`, `{"index_price":"…"}` or both in
 * either order, each an integer wei string (WEI_PATTERN). Checked by one sticky regex: native code
 * over the digits, where reading them one by one in JavaScript cost more than JSON.parse.
 */
const PRICE = new RegExp(
  String.raw`\{(?:"mark_price":${WEI}(?:,"index_price":${WEI})?|"index_price":${WEI}(?:,"mark_price":${WEI})?)?\}`,
  'y',
);
/** Where the first value starts: after `{"mark_price":"` or `{"index_price":"`. */
const FIRST_MARK_AT = 15;
const FIRST_INDEX_AT = 16;
/** Where the second starts, from the first's closing quote: after `","index_price":"` or `","mark_price":"`. */
const SECOND_INDEX_AT = 17;
const SECOND_MARK_AT = 16;
const LETTER_M = 0x6d;

/** Past one market's prices in the spelling `scanPrice` reads, unconverted; false for any other. */
function skipPrice(cursor: FrameTextCursor): boolean {
  PRICE.lastIndex = cursor.pos;
  if (!PRICE.test(cursor.text)) return false;
  cursor.pos = PRICE.lastIndex;
  return true;
}

/** `{ index_price?, mark_price? }` in the one spelling `PRICE` checks; undefined for any other. */
function scanPrice(cursor: FrameTextCursor): OraclePrice | undefined {
  const { text, pos } = cursor;
  PRICE.lastIndex = pos;
  if (!PRICE.test(text)) return undefined;
  const end = PRICE.lastIndex;
  cursor.pos = end;
  if (end === pos + 2) return oraclePrice(undefined, undefined);
  // Checked: the values end at the next quote, and a second follows a comma.
  const markFirst = text.charCodeAt(pos + 2) === LETTER_M;
  const firstStart = pos + (markFirst ? FIRST_MARK_AT : FIRST_INDEX_AT);
  const firstEnd = text.indexOf('"', firstStart);
  const first = weiDigitsToDecimal(text, firstStart, firstEnd);
  if (firstEnd + 2 === end) return markFirst ? oraclePrice(undefined, first) : oraclePrice(first, undefined);
  const secondStart = firstEnd + (markFirst ? SECOND_INDEX_AT : SECOND_MARK_AT);
  const second = weiDigitsToDecimal(text, secondStart, end - 2);
  return markFirst ? oraclePrice(second, first) : oraclePrice(first, second);
}

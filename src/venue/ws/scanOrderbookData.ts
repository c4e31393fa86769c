import { WireOrderbookLevel } from '../schemas/wireOrderbookLevel.js';
import type { OrderbookLevel } from '../schemas/wsFramesOrderbook.js';
import { type FrameTextCursor, NOT_READ } from './frameTextCursor.js';
import type { HotFrameFields } from './hotFrameFields.js';
import { marketIdValue, onceChecksum } from './scanFrameValues.js';

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;

/**
 * An orderbook frame's `data` (`market_id?`, `bids`, `asks`, `checksum?`, in any order, each
 * once) into `fields`; false for anything else, which the JSON.parse way then decides.
 */
export function scanOrderbookData(cursor: FrameTextCursor, fields: HotFrameFields): boolean {
  if (!cursor.takeChar(OPEN_BRACE)) return false;
  do {
    const key = cursor.key();
    if (key === undefined || !readDataField(cursor, key, fields)) return false;
  } while (cursor.takeChar(COMMA));
  return cursor.takeChar(CLOSE_BRACE);
}

function readDataField(cursor: FrameTextCursor, key: string, fields: HotFrameFields): boolean {
  switch (key) {
    case 'bids':
      if (fields.bids !== undefined) return false;
      fields.bids = scanLevels(cursor);
      return fields.bids !== undefined;
    case 'asks':
      if (fields.asks !== undefined) return false;
      fields.asks = scanLevels(cursor);
      return fields.asks !== undefined;
    case 'market_id':
      if (fields.dataMarketId !== undefined) return false;
      fields.dataMarketId = marketIdValue(cursor);
      return fields.dataMarketId !== NOT_READ;
    case 'checksum':
      fields.dataChecksum = onceChecksum(cursor, fields.dataChecksum);
      return fields.dataChecksum !== NOT_READ;
    default:
      return false;
  }
}

/** BOOK_DECIMAL_PATTERN's text, and a JSON integer of at most 15 digits (a safe one). */
const DECIMAL = String.raw`\d{1,18}(?:\.\d{1,18})?`;
const COUNT = String.raw`(?:0|[1-9]\d{0,14})`;
/**
 * One level, exactly `{"price":"…","quantity":"…","order_count":n}` (the venue's and the
 * simulator's spelling and order). Checked by one sticky regex: the regex engine runs native code
 * over the level's characters, several times faster than reading them one by one in JavaScript.
 */
const LEVEL = new RegExp(String.raw`\{"price":"${DECIMAL}","quantity":"${DECIMAL}","order_count":${COUNT}\}`, 'y');
/** `{"price":"` and `","quantity":"` and `","order_count":`. */
const PRICE_AT = 10;
const QUANTITY_AFTER_PRICE = 14;
const COUNT_AFTER_QUANTITY = 16;
const ZERO = 0x30;

/**
 * A list of levels, each in the one spelling `LEVEL` checks (another order or another key goes
 * the JSON.parse way). The decimals are checked as `bookDecimalSchema` checks them, so the level's
 * lazy conversions cannot fail. Once a level is checked, its parts are where the pattern puts
 * them: the decimals end at the next quote, the count at the closing brace. A decimal of 13
 * characters or more is a slice that keeps the frame's text alive (V8's sliced strings) while
 * the level stands or its wei text is remembered (at most 10,000, `wireOrderbookLevel.ts`); the
 * venue's are shorter ("63218.5", "1.317053"), so few frames are kept, and never without bound.
 */
function scanLevels(cursor: FrameTextCursor): OrderbookLevel[] | undefined {
  const { text } = cursor;
  if (!cursor.takeChar(OPEN_BRACKET)) return undefined;
  const levels: OrderbookLevel[] = [];
  if (cursor.takeChar(CLOSE_BRACKET)) return levels;
  let pos = cursor.pos;
  for (;;) {
    LEVEL.lastIndex = pos;
    if (!LEVEL.test(text)) return undefined;
    const priceStart = pos + PRICE_AT;
    const priceEnd = text.indexOf('"', priceStart);
    const quantityStart = priceEnd + QUANTITY_AFTER_PRICE;
    const quantityEnd = text.indexOf('"', quantityStart);
    const countEnd = LEVEL.lastIndex - 1;
    let orderCount = 0;
    for (let at = quantityEnd + COUNT_AFTER_QUANTITY; at < countEnd; at++)
      orderCount = orderCount * 10 + (text.charCodeAt(at) - ZERO);
    levels.push(
      new WireOrderbookLevel(text.slice(priceStart, priceEnd), text.slice(quantityStart, quantityEnd), orderCount),
    );
    pos = countEnd + 1;
    const next = text.charCodeAt(pos++);
    if (next === CLOSE_BRACKET) break;
    if (next !== COMMA) return undefined;
  }
  cursor.pos = pos;
  return levels;
}

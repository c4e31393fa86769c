import { MARKET_ID_MAX, UINT32_MAX } from '../schemas/wsFramesFields.js';
import { type FrameTextCursor, NOT_READ } from './frameTextCursor.js';

/**
 * The frame-level values the hot-frame scanners read in more than one place, each in the plain
 * spellings the scanner takes (NOT_READ for anything else, which the JSON.parse way then decides).
 */

/**
 * marketIdSchema in the spellings the scanner reads: a plain integer, or its canonical decimal
 * string (no leading zero), up to MARKET_ID_MAX.
 */
export function marketIdValue(cursor: FrameTextCursor): number {
  const quoted = cursor.peek() === 0x22;
  const digits = quoted ? cursor.digitString(1, 5) : undefined;
  if (quoted && (digits === undefined || (digits.length > 1 && digits.charCodeAt(0) === 0x30))) return NOT_READ;
  const marketId = digits === undefined ? cursor.uint() : Number(digits);
  return marketId <= MARKET_ID_MAX ? marketId : NOT_READ;
}

/** A non-negative integer not read before; NOT_READ for a repeat or another spelling. */
export function onceUint(cursor: FrameTextCursor, current: number | undefined): number {
  return current === undefined ? cursor.uint() : NOT_READ;
}

/** A checksum (a uint32) not read before; NOT_READ otherwise. */
export function onceChecksum(cursor: FrameTextCursor, current: number | undefined): number {
  const value = onceUint(cursor, current);
  return value <= UINT32_MAX ? value : NOT_READ;
}

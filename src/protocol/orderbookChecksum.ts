import { crc32 } from 'node:zlib';
import { decimalToWei } from '../core/decimal.js';

/** A book level as exact decimal strings (what REST and the decoded WebSocket levels carry). */
export interface ChecksumLevel {
  readonly price: string;
  readonly quantity: string;
}

/**
 * The text the orderbook checksum covers (venue-facts "WebSocket"): bids best-first (descending)
 * and asks best-first (ascending) interleaved bid0, ask0, bid1, ask1, …, the longer side
 * continuing alone; each level as its price and quantity in integer wei strings; everything joined
 * by ":". Levels must already be in book order; the function does not sort.
 */
export function orderbookChecksumText(bids: readonly ChecksumLevel[], asks: readonly ChecksumLevel[]): string {
  const parts: string[] = [];
  const depth = Math.max(bids.length, asks.length);
  for (let i = 0; i < depth; i++) {
    const bid = bids[i];
    const ask = asks[i];
    if (bid !== undefined) parts.push(...levelParts(bid, `bids[${i}]`));
    if (ask !== undefined) parts.push(...levelParts(ask, `asks[${i}]`));
  }
  return parts.join(':');
}

/** CRC32 (IEEE, as zlib computes it) of `orderbookChecksumText`, an unsigned 32-bit number. */
export function orderbookChecksum(bids: readonly ChecksumLevel[], asks: readonly ChecksumLevel[]): number {
  return crc32(orderbookChecksumText(bids, asks)) >>> 0;
}

/** A book level as the wire's canonical integer wei strings (no leading zeros). */
export interface WireChecksumLevel {
  readonly priceText: string;
  readonly quantityText: string;
}

/**
 * `orderbookChecksum` over levels that still hold the wire's integer strings, as the client's
 * decoded levels do: the same text without converting each level back from a decimal, which the
 * client pays on every update of a deep book.
 */
export function orderbookChecksumOfWire(
  bids: readonly WireChecksumLevel[],
  asks: readonly WireChecksumLevel[],
): number {
  let text = '';
  const depth = Math.max(bids.length, asks.length);
  for (let i = 0; i < depth; i++) {
    const bid = bids[i];
    const ask = asks[i];
    if (bid !== undefined) text += (text.length === 0 ? '' : ':') + bid.priceText + ':' + bid.quantityText;
    if (ask !== undefined) text += (text.length === 0 ? '' : ':') + ask.priceText + ':' + ask.quantityText;
  }
  return crc32(text) >>> 0;
}

function levelParts(level: ChecksumLevel, field: string): [string, string] {
  return [
    decimalToWei(level.price, `${field}.price`).toString(),
    decimalToWei(level.quantity, `${field}.quantity`).toString(),
  ];
}

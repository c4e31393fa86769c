import { crc32 } from 'node:zlib';

/**
 * The orderbook checksum of venue-facts: CRC32 over the full book, bids best (highest) first and
 * asks best (lowest) first, interleaved bid/ask level by level, each level as its price and
 * quantity in integer wei strings, everything joined by ":". A side that runs out simply stops
 * contributing. Kept here until `src/protocol/orderbookChecksum.ts` lands; then this file goes.
 */
export interface ChecksumLevel {
  readonly price: string;
  readonly quantity: string;
}

export function bookChecksumText(bids: readonly ChecksumLevel[], asks: readonly ChecksumLevel[]): string {
  const parts: string[] = [];
  for (let i = 0; i < Math.max(bids.length, asks.length); i++) {
    const bid = bids[i];
    const ask = asks[i];
    if (bid !== undefined) parts.push(bid.price, bid.quantity);
    if (ask !== undefined) parts.push(ask.price, ask.quantity);
  }
  return parts.join(':');
}

export function bookChecksum(bids: readonly ChecksumLevel[], asks: readonly ChecksumLevel[]): number {
  return crc32(bookChecksumText(bids, asks)) >>> 0;
}

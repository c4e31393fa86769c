import { orderbookFrameSchema, type OrderbookMessage } from '../../../src/venue/schemas/wsFramesOrderbook.js';

/** A level in human decimals: [price, quantity]; order_count 1 unless quantity is 0. */
export type Level = readonly [string, string];

/** Builds a wire orderbook frame from decimal levels, in the venue's shape (venue-wire.md §3). */
export function bookWire(
  type: 'snapshot' | 'update',
  marketId: number,
  bids: Level[],
  asks: Level[],
  checksum?: number,
  block = 1,
): object {
  const toWire = ([price, quantity]: Level): object => ({ price, quantity, order_count: quantity === '0' ? 0 : 1 });
  return {
    method: type,
    channel: 'orderbook',
    type,
    market_id: String(marketId),
    data: { market_id: marketId, bids: bids.map(toWire), asks: asks.map(toWire) },
    level_count: bids.length + asks.length,
    ...(checksum === undefined ? {} : { checksum }),
    worker_timestamp: `${block}000000000`,
    block_number: block,
    log_index: 0,
  };
}

/** The same frame decoded, as the client delivers it. */
export function bookMessage(
  type: 'snapshot' | 'update',
  marketId: number,
  bids: Level[],
  asks: Level[],
  checksum?: number,
  block = 1,
): OrderbookMessage {
  return orderbookFrameSchema.parse(bookWire(type, marketId, bids, asks, checksum, block));
}

export function prices(levels: readonly { price: string; quantity: string }[]): string[][] {
  return levels.map((l) => [l.price, l.quantity]);
}

import { decimalToWei } from '../../../src/core/decimal.js';
import { orderbookFrameSchema, type OrderbookMessage } from '../../../src/venue/schemas/wsFramesOrderbook.js';

/** A level in human decimals: [price, quantity]; order_count 1 unless quantity is 0. */
export type Level = readonly [string, string];

/** Builds a wire orderbook frame from decimal levels (wire values are integer wei strings). */
export function bookWire(
  type: 'snapshot' | 'update',
  marketId: number,
  bids: Level[],
  asks: Level[],
  checksum?: number,
  block = 1,
): object {
  const toWire = ([price, quantity]: Level): object => ({
    price: decimalToWei(price, 'price').toString(),
    quantity: decimalToWei(quantity, 'quantity').toString(),
    order_count: quantity === '0' ? 0 : 1,
  });
  return {
    channel: 'orderbook',
    type,
    market_id: marketId,
    data: {
      market_id: marketId,
      bids: bids.map(toWire),
      asks: asks.map(toWire),
      ...(checksum === undefined ? {} : { checksum }),
    },
    worker_timestamp: `${block}000000000`,
    block_number: block,
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

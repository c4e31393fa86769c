import { decimalToWei } from '../../core/decimal.js';
import { orderbookChecksum } from '../../protocol/orderbookChecksum.js';
import type { OrderbookLevelWire, OrderbookWireFrame } from '../../venue/schemas/wsFramesOrderbook.js';
import { bookDiff } from '../exchange/bookDiff.js';
import type { BookLevel, BookSnapshot } from '../exchange/exchangeRecords.js';
import type { FrameMeta } from './frameMeta.js';

/**
 * Turns the exchange's decimal books into orderbook frames: a snapshot of the whole book, and
 * updates carrying only the levels that changed since the last publication, as absolute values
 * (quantity "0" deletes a level). Every frame carries the checksum of the full book after it is
 * applied. One publisher is shared by all connections, so every subscriber sees the same diffs.
 */
export class OrderbookPublisher {
  private readonly published = new Map<number, { readonly book: BookSnapshot; readonly checksum: number }>();

  /**
   * Publishes `book`: the levels that changed since the last publication, or undefined when
   * nothing did. Call it before `snapshot` so that existing subscribers stay in step.
   */
  update(book: BookSnapshot, meta: FrameMeta): OrderbookWireFrame | undefined {
    const previous = this.published.get(book.market_id)?.book ?? emptyBook(book.market_id);
    const checksum = orderbookChecksum(book.bids, book.asks);
    this.published.set(book.market_id, { book, checksum });
    const changed = bookDiff(previous, book);
    if (changed.bids.length === 0 && changed.asks.length === 0) return undefined;
    return frame('update', book.market_id, changed.bids, changed.asks, checksum, meta);
  }

  /** The whole book as last published. */
  snapshot(marketId: number, meta: FrameMeta): OrderbookWireFrame {
    const published = this.published.get(marketId) ?? {
      book: emptyBook(marketId),
      checksum: orderbookChecksum([], []),
    };
    return frame('snapshot', marketId, published.book.bids, published.book.asks, published.checksum, meta);
  }

  /** Forgets a market's book, e.g. when nobody is subscribed to it any more. */
  forget(marketId: number): void {
    this.published.delete(marketId);
  }
}

function emptyBook(marketId: number): BookSnapshot {
  return { market_id: marketId, bids: [], asks: [] };
}

/** Wire levels are integer wei strings (venue-facts: the checksum is computed over those). */
function toWire(levels: readonly BookLevel[], side: string): OrderbookLevelWire[] {
  return levels.map((level, i) => ({
    price: decimalToWei(level.price, `book.${side}[${i}].price`).toString(),
    quantity: decimalToWei(level.quantity, `book.${side}[${i}].quantity`).toString(),
    order_count: level.order_count,
  }));
}

function frame(
  type: 'snapshot' | 'update',
  marketId: number,
  bids: readonly BookLevel[],
  asks: readonly BookLevel[],
  checksum: number,
  meta: FrameMeta,
): OrderbookWireFrame {
  return {
    channel: 'orderbook',
    type,
    market_id: marketId,
    data: { market_id: marketId, bids: toWire(bids, 'bids'), asks: toWire(asks, 'asks'), checksum },
    ...meta,
  };
}

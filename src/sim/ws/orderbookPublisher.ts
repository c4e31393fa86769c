import { decimalToWei } from '../../core/decimal.js';
import { orderbookChecksumOfWire, type WireChecksumLevel } from '../../protocol/orderbookChecksum.js';
import type { CanonicalBookLevel, CanonicalOrderbookFrame } from '../../venue/schemas/wsWireCanonical.js';
import { bookDiff } from '../exchange/bookDiff.js';
import type { BookLevel, BookSnapshot } from '../exchange/exchangeRecords.js';

/** Where a book frame sits in the chain: the orderbook envelope always carries all three. */
export interface BookFrameMeta {
  readonly worker_timestamp: string;
  readonly block_number: number;
  readonly log_index: number;
}

/**
 * Turns the exchange's decimal books into orderbook frames in the venue's shape
 * (`wsWireCanonical.ts`, venue-wire.md §3): a snapshot of the whole book without a checksum, and
 * updates carrying only the levels that changed since the last publication, as absolute values
 * (quantity "0" deletes a level), with the checksum of the full book after it is applied at the
 * envelope. One publisher is shared by all connections, so every subscriber sees the same diffs.
 */
export class OrderbookPublisher {
  private readonly published = new Map<number, BookSnapshot>();
  /**
   * The wei text of each decimal price and quantity seen (a book repeats a few hundred of them):
   * the checksum covers the whole book on every update, and converting each level again was most
   * of a replay's publishing cost. Cleared when it grows past `MAX_WEI_TEXTS`.
   */
  private readonly weiTexts = new Map<string, string>();

  /**
   * Publishes `book`: the levels that changed since the last publication, or undefined when
   * nothing did. Call it before `snapshot` so that existing subscribers stay in step.
   */
  update(book: BookSnapshot, meta: BookFrameMeta): CanonicalOrderbookFrame | undefined {
    const previous = this.published.get(book.market_id) ?? emptyBook(book.market_id);
    this.published.set(book.market_id, book);
    const changed = bookDiff(previous, book);
    if (changed.bids.length === 0 && changed.asks.length === 0) return undefined;
    // The client checks the same CRC32 code over the same wei conversions (venue-wire.md §3).
    const checksum = orderbookChecksumOfWire(this.wireLevels(book.bids, 'bids'), this.wireLevels(book.asks, 'asks'));
    return { method: 'update', type: 'update', ...body(book.market_id, changed.bids, changed.asks, meta), checksum };
  }

  /** The whole book as last published. */
  snapshot(marketId: number, meta: BookFrameMeta): CanonicalOrderbookFrame {
    const book = this.published.get(marketId) ?? emptyBook(marketId);
    return { method: 'snapshot', type: 'snapshot', ...body(marketId, book.bids, book.asks, meta) };
  }

  /** Forgets a market's book, e.g. when nobody is subscribed to it any more. */
  forget(marketId: number): void {
    this.published.delete(marketId);
  }

  /** The levels with their wei texts, as `orderbookChecksum` converts them. */
  private wireLevels(levels: readonly BookLevel[], side: string): WireChecksumLevel[] {
    return levels.map((level, i) => ({
      priceWeiText: this.weiText(level.price) ?? this.convert(level.price, `${side}[${i}].price`),
      quantityWeiText: this.weiText(level.quantity) ?? this.convert(level.quantity, `${side}[${i}].quantity`),
    }));
  }

  private weiText(decimal: string): string | undefined {
    return this.weiTexts.get(decimal);
  }

  /** A decimal not seen yet (the field names it in the error of one that is no decimal). */
  private convert(decimal: string, field: string): string {
    if (this.weiTexts.size >= MAX_WEI_TEXTS) this.weiTexts.clear();
    const text = decimalToWei(decimal, field).toString();
    this.weiTexts.set(decimal, text);
    return text;
  }
}

/** Distinct decimals the wei cache holds before it starts again (a few MB at most). */
const MAX_WEI_TEXTS = 20_000;

function emptyBook(marketId: number): BookSnapshot {
  return { market_id: marketId, bids: [], asks: [] };
}

/** The envelope as captured: market id a string outside `data` and a number inside. */
function body(
  marketId: number,
  bids: readonly BookLevel[],
  asks: readonly BookLevel[],
  meta: BookFrameMeta,
): Omit<CanonicalOrderbookFrame, 'method' | 'type' | 'checksum'> {
  return {
    channel: 'orderbook',
    market_id: String(marketId),
    data: { market_id: marketId, bids: bids.map(wireLevel), asks: asks.map(wireLevel) },
    level_count: bids.length + asks.length,
    block_number: meta.block_number,
    log_index: meta.log_index,
    worker_timestamp: meta.worker_timestamp,
  };
}

/** The exchange's levels are canonical decimals already, which is what the wire carries. */
function wireLevel(level: BookLevel): CanonicalBookLevel {
  return { price: level.price, quantity: level.quantity, order_count: level.order_count };
}

import { orderbookChecksumVia } from '../../protocol/orderbookChecksum.js';
import type { CanonicalBookLevel, CanonicalOrderbookFrame } from '../../venue/schemas/wsWireCanonical.js';
import type { TickBook } from '../exchange/exchange.js';
import { decimalLevel, levelTexts, type LevelTexts } from '../exchange/marketRecords.js';
import type { TickLevel } from '../exchange/orderBook.js';

/** Where a book frame sits in the chain: the orderbook envelope always carries all three. */
export interface BookFrameMeta {
  readonly worker_timestamp: string;
  readonly block_number: number;
  readonly log_index: number;
}

/**
 * Turns the exchange's books into orderbook frames in the venue's shape (`wsWireCanonical.ts`,
 * venue-wire.md §3): a snapshot of the whole book without a checksum, and updates carrying only
 * the levels that changed since the last publication, as absolute values (quantity "0" deletes a
 * level), with the checksum of the full book after it is applied at the envelope. One publisher is
 * shared by all connections, so every subscriber sees the same diffs. Books are compared in ticks
 * and steps and only the changed levels become decimals: converting and comparing every level as
 * decimals on every update was most of a replay's publishing cost.
 */
export class OrderbookPublisher {
  private readonly published = new Map<number, TickBook>();

  /**
   * Publishes `book`: the levels that changed since the last publication, or undefined when
   * nothing did. Call it before `snapshot` so that existing subscribers stay in step.
   */
  update(book: TickBook, meta: BookFrameMeta): CanonicalOrderbookFrame | undefined {
    const marketId = book.market.marketId;
    const previous = this.published.get(marketId);
    this.published.set(marketId, book);
    const bids = changedLevels(previous?.bids ?? [], book.bids, (a, b) => a > b);
    const asks = changedLevels(previous?.asks ?? [], book.asks, (a, b) => a < b);
    if (bids.length === 0 && asks.length === 0) return undefined;
    const texts = levelTexts(book.market);
    // The client checks the same CRC32 code over the same wei texts (venue-wire.md §3).
    const checksum = orderbookChecksumVia(book.bids, book.asks, texts.levelPriceWei, texts.levelQuantityWei);
    return {
      method: 'update',
      type: 'update',
      ...body(marketId, decimalLevels(bids, texts), decimalLevels(asks, texts), meta),
      checksum,
    };
  }

  /** The whole book as last published. */
  snapshot(marketId: number, meta: BookFrameMeta): CanonicalOrderbookFrame {
    const book = this.published.get(marketId);
    const texts = book === undefined ? undefined : levelTexts(book.market);
    const side = (levels: readonly TickLevel[] | undefined): CanonicalBookLevel[] =>
      levels === undefined || texts === undefined ? [] : decimalLevels(levels, texts);
    return { method: 'snapshot', type: 'snapshot', ...body(marketId, side(book?.bids), side(book?.asks), meta) };
  }

  /** Forgets a market's book, e.g. when nobody is subscribed to it any more. */
  forget(marketId: number): void {
    this.published.delete(marketId);
  }
}

/**
 * The levels of `next` that are new or changed (size or order count), and those of `previous`
 * gone (size 0, no orders), best first. Both sides are best first (`better` orders two prices),
 * so one walk over both finds them in book order.
 */
function changedLevels(
  previous: readonly TickLevel[],
  next: readonly TickLevel[],
  better: (a: number, b: number) => boolean,
): TickLevel[] {
  const out: TickLevel[] = [];
  let i = 0;
  let j = 0;
  while (i < previous.length || j < next.length) {
    const was = previous[i];
    const now = next[j];
    if (was !== undefined && now !== undefined && was.priceTicks === now.priceTicks) {
      if (was.steps !== now.steps || was.orderCount !== now.orderCount) out.push(now);
      i++;
      j++;
    } else if (now !== undefined && (was === undefined || better(now.priceTicks, was.priceTicks))) {
      out.push(now);
      j++;
    } else if (was !== undefined) {
      out.push({ priceTicks: was.priceTicks, steps: 0n, orderCount: 0 });
      i++;
    }
  }
  return out;
}

/** Levels as the wire carries them: canonical decimals (a gone level's quantity "0"). */
function decimalLevels(levels: readonly TickLevel[], texts: LevelTexts): CanonicalBookLevel[] {
  return levels.map((level) => decimalLevel(level, texts));
}

/** The envelope as captured: market id a string outside `data` and a number inside. */
function body(
  marketId: number,
  bids: CanonicalBookLevel[],
  asks: CanonicalBookLevel[],
  meta: BookFrameMeta,
): Omit<CanonicalOrderbookFrame, 'method' | 'type' | 'checksum'> {
  return {
    channel: 'orderbook',
    market_id: String(marketId),
    data: { market_id: marketId, bids, asks },
    level_count: bids.length + asks.length,
    block_number: meta.block_number,
    log_index: meta.log_index,
    worker_timestamp: meta.worker_timestamp,
  };
}

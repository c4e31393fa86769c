import type { Crc32Part } from '../../protocol/crc32Parts.js';
import { checksumPair, orderbookChecksumOfPairs } from '../../protocol/orderbookChecksum.js';
import type { CanonicalBookLevel, CanonicalOrderbookFrame } from '../../venue/schemas/wsWireCanonical.js';
import type { Exchange, TickBook } from '../exchange/exchange.js';
import { decimalLevel, levelTexts, type LevelTexts } from '../exchange/marketRecords.js';
import type { MarketSpec } from '../exchange/markets.js';
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
  private readonly published = new Map<number, PublishedBook>();

  /**
   * Publishes `book`: the levels that changed since the last publication, or undefined when
   * nothing did. Call it before `snapshot` so that existing subscribers stay in step.
   */
  update(book: TickBook, meta: BookFrameMeta): CanonicalOrderbookFrame | undefined {
    const previous = this.published.get(book.market.marketId);
    const texts = levelTexts(book.market);
    const bids = diffSide(previous?.bids ?? [], previous?.bidPairs ?? [], book.bids, texts, (a, b) => a > b);
    const asks = diffSide(previous?.asks ?? [], previous?.askPairs ?? [], book.asks, texts, (a, b) => a < b);
    return this.publish(book.market, { ...bids, levels: book.bids }, { ...asks, levels: book.asks }, meta);
  }

  /**
   * As `update`, reading from the exchange only the levels that changed since this publisher last
   * read the market (the whole book the first time, or after `forget`): the same frames, without
   * building and walking the whole book on every change.
   */
  updateFrom(
    exchange: Pick<Exchange, 'bookChanges'>,
    marketId: number,
    meta: BookFrameMeta,
  ): CanonicalOrderbookFrame | undefined {
    const previous = this.published.get(marketId);
    const changes = exchange.bookChanges(marketId, this, previous === undefined);
    if (previous === undefined || changes.whole) return this.update(changes, meta);
    const texts = levelTexts(changes.market);
    const bids = mergeSide(previous.bids, previous.bidPairs, changes.bids, texts, (a, b) => a > b);
    const asks = mergeSide(previous.asks, previous.askPairs, changes.asks, texts, (a, b) => a < b);
    return this.publish(changes.market, bids, asks, meta);
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

  /** Keeps the book as now published; the update frame of its changed levels, or undefined when none changed. */
  private publish(
    market: MarketSpec,
    bids: PublishedSide,
    asks: PublishedSide,
    meta: BookFrameMeta,
  ): CanonicalOrderbookFrame | undefined {
    const marketId = market.marketId;
    this.published.set(marketId, {
      market,
      bids: bids.levels,
      asks: asks.levels,
      bidPairs: bids.pairs,
      askPairs: asks.pairs,
    });
    if (bids.changed.length === 0 && asks.changed.length === 0) return undefined;
    // The client checks the same CRC32 code over the same wei texts (venue-wire.md §3); a level
    // that stands keeps its text from one update to the next.
    const checksum = orderbookChecksumOfPairs(bids.pairs, asks.pairs, samePair);
    const texts = levelTexts(market);
    return {
      method: 'update',
      type: 'update',
      ...body(marketId, decimalLevels(bids.changed, texts), decimalLevels(asks.changed, texts), meta),
      checksum,
    };
  }
}

/** A book as last published, with each level's `priceWei:quantityWei` text as the checksum's CRC part, side by side. */
interface PublishedBook {
  readonly market: MarketSpec;
  readonly bids: readonly TickLevel[];
  readonly asks: readonly TickLevel[];
  readonly bidPairs: readonly Crc32Part[];
  readonly askPairs: readonly Crc32Part[];
}

/** One side as now published (best first, with each level's checksum part) and its levels that changed. */
interface PublishedSide {
  readonly changed: TickLevel[];
  readonly levels: readonly TickLevel[];
  readonly pairs: readonly Crc32Part[];
}

/**
 * One side as published before with `changes` (levels at changed prices, best first; 0 steps and
 * no orders where none rests now) applied: the levels new, changed or gone, best first as
 * `diffSide` finds them, and the side now with its checksum texts. A listed level that stands as
 * published (it changed and changed back) is no change.
 */
function mergeSide(
  previous: readonly TickLevel[],
  previousPairs: readonly Crc32Part[],
  changes: readonly TickLevel[],
  texts: LevelTexts,
  better: (a: number, b: number) => boolean,
): PublishedSide {
  const changed: TickLevel[] = [];
  const levels: TickLevel[] = [];
  const pairs: Crc32Part[] = [];
  let i = 0;
  for (const now of changes) {
    while (i < previous.length && better(previous[i]!.priceTicks, now.priceTicks)) {
      levels.push(previous[i]!);
      pairs.push(previousPairs[i++]!);
    }
    const was = previous[i]?.priceTicks === now.priceTicks ? previous[i++] : undefined;
    const gone = now.orderCount === 0;
    if (was === undefined) {
      if (gone) continue;
      changed.push(now);
    } else if (gone) {
      changed.push(now);
      continue;
    } else if (was.steps !== now.steps || was.orderCount !== now.orderCount) {
      changed.push(now);
    }
    levels.push(now);
    pairs.push(was !== undefined && was.steps === now.steps ? previousPairs[i - 1]! : pairPart(now, texts));
  }
  while (i < previous.length) {
    levels.push(previous[i]!);
    pairs.push(previousPairs[i++]!);
  }
  return { changed, levels, pairs };
}

/**
 * The levels of `next` that are new or changed (size or order count), and those of `previous`
 * gone (size 0, no orders), best first; and the checksum text of each level of `next`, kept from
 * `previous` where the level's price and size stand. Both sides are best first (`better` orders
 * two prices), so one walk over both finds them in book order.
 */
function diffSide(
  previous: readonly TickLevel[],
  previousPairs: readonly Crc32Part[],
  next: readonly TickLevel[],
  texts: LevelTexts,
  better: (a: number, b: number) => boolean,
): { changed: TickLevel[]; pairs: Crc32Part[] } {
  const changed: TickLevel[] = [];
  const pairs = new Array<Crc32Part>(next.length);
  let i = 0;
  let j = 0;
  while (i < previous.length || j < next.length) {
    const was = previous[i];
    const now = next[j];
    if (was !== undefined && now !== undefined && was.priceTicks === now.priceTicks) {
      if (was.steps !== now.steps || was.orderCount !== now.orderCount) changed.push(now);
      pairs[j] = was.steps === now.steps ? previousPairs[i]! : pairPart(now, texts);
      i++;
      j++;
    } else if (now !== undefined && (was === undefined || better(now.priceTicks, was.priceTicks))) {
      changed.push(now);
      pairs[j] = pairPart(now, texts);
      j++;
    } else if (was !== undefined) {
      changed.push({ priceTicks: was.priceTicks, steps: 0n, orderCount: 0 });
      i++;
    }
  }
  return { changed, pairs };
}

function pairPart(level: TickLevel, texts: LevelTexts): Crc32Part {
  return checksumPair(texts.priceWei(level.priceTicks), texts.quantityWei(level.steps));
}

const samePair = (pair: Crc32Part): Crc32Part => pair;

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

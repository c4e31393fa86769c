import { compareIntegerText } from '../schemas/wireOrderbookLevel.js';
import type { OrderbookLevel, OrderbookMessage } from '../schemas/wsFramesOrderbook.js';

/** CRC32 of the book as the venue computes it; see `src/protocol/orderbookChecksum.ts`. */
export type OrderbookChecksumFn = (bids: readonly OrderbookLevel[], asks: readonly OrderbookLevel[]) => number;

export type ApplyResult =
  | { readonly kind: 'applied' }
  /** An update before any snapshot (or after a mismatch): meaningless without its base. */
  | { readonly kind: 'ignored'; readonly reason: string }
  | { readonly kind: 'checksum-mismatch'; readonly expected: number; readonly actual: number };

/**
 * The local copy of one market's book: a snapshot, then updates carrying absolute levels
 * (quantity 0 deletes). Levels are keyed by the price's canonical wei text, so no two spellings
 * of a price ("63220", "63220.0") can make two levels, and no level is converted to a bigint.
 * After a checksum mismatch the book is unsynced and ignores updates until the next snapshot.
 */
export class LocalOrderBook {
  /** Each side best first, a fresh array per applied message: a view handed out keeps its picture. */
  private sortedBids: readonly OrderbookLevel[] = [];
  private sortedAsks: readonly OrderbookLevel[] = [];
  private isSynced = false;
  private last: { blockNumber?: number; workerTimestamp: bigint } | undefined;

  constructor(
    readonly marketId: number,
    private readonly checksum?: OrderbookChecksumFn,
  ) {}

  get synced(): boolean {
    return this.isSynced;
  }

  /** Block number of the last applied message, when the venue sent one. */
  get blockNumber(): number | undefined {
    return this.last?.blockNumber;
  }

  apply(message: OrderbookMessage): ApplyResult {
    if (message.marketId !== this.marketId)
      return { kind: 'ignored', reason: `message for market ${message.marketId}` };
    if (message.type === 'snapshot') {
      this.sortedBids = [];
      this.sortedAsks = [];
      this.isSynced = true;
    } else if (!this.isSynced) {
      return { kind: 'ignored', reason: 'update before a snapshot' };
    }
    this.sortedBids = withLevels(this.sortedBids, message.bids, HIGHEST_FIRST);
    this.sortedAsks = withLevels(this.sortedAsks, message.asks, LOWEST_FIRST);
    // Not a conditional spread: this runs on every update.
    this.last = { workerTimestamp: message.workerTimestamp };
    if (message.blockNumber !== undefined) this.last.blockNumber = message.blockNumber;
    if (message.checksum !== undefined && this.checksum !== undefined) {
      const actual = this.checksum(this.sortedBids, this.sortedAsks);
      if (actual !== message.checksum) {
        this.isSynced = false;
        return { kind: 'checksum-mismatch', expected: message.checksum, actual };
      }
    }
    return { kind: 'applied' };
  }

  /** Forget the book until the next snapshot (e.g. the connection dropped). */
  invalidate(): void {
    this.isSynced = false;
  }

  /** Best first: highest price first. */
  bids(depth?: number): readonly OrderbookLevel[] {
    return depth === undefined ? this.sortedBids : this.sortedBids.slice(0, depth);
  }

  /** Best first: lowest price first. */
  asks(depth?: number): readonly OrderbookLevel[] {
    return depth === undefined ? this.sortedAsks : this.sortedAsks.slice(0, depth);
  }

  bestBid(): OrderbookLevel | undefined {
    return this.sortedBids[0];
  }

  bestAsk(): OrderbookLevel | undefined {
    return this.sortedAsks[0];
  }
}

/** Orders two wei texts best first: negative when `a` comes before `b`. */
type BookOrder = (a: string, b: string) => number;

const HIGHEST_FIRST: BookOrder = (a, b) => compareIntegerText(b, a);
const LOWEST_FIRST: BookOrder = compareIntegerText;

/**
 * A side with a message's levels applied (absolute levels keyed by their price's wei text; a
 * deletion removes its price), as a new array: each level is found by binary search and put in its
 * place, where sorting the whole side again on every update was a hot spot of a replay.
 */
function withLevels(
  side: readonly OrderbookLevel[],
  levels: readonly OrderbookLevel[],
  order: BookOrder,
): readonly OrderbookLevel[] {
  if (levels.length === 0) return side;
  const next = side.slice();
  for (const level of levels) {
    const key = level.priceWeiText;
    const at = placeOf(next, key, order);
    const found = at < next.length && next[at]!.priceWeiText === key;
    if (level.isDeletion) {
      if (found) next.splice(at, 1);
    } else if (found) next[at] = level;
    else next.splice(at, 0, level);
  }
  return next;
}

/** The first index whose price does not come before `key` (where `key` is, or would go). */
function placeOf(side: readonly OrderbookLevel[], key: string, order: BookOrder): number {
  let low = 0;
  let high = side.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (order(side[mid]!.priceWeiText, key) < 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

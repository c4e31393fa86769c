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
  private readonly bidLevels = new Map<string, OrderbookLevel>();
  private readonly askLevels = new Map<string, OrderbookLevel>();
  private sortedBids: OrderbookLevel[] | undefined;
  private sortedAsks: OrderbookLevel[] | undefined;
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
      this.bidLevels.clear();
      this.askLevels.clear();
      this.isSynced = true;
    } else if (!this.isSynced) {
      return { kind: 'ignored', reason: 'update before a snapshot' };
    }
    setLevels(this.bidLevels, message.bids);
    setLevels(this.askLevels, message.asks);
    this.sortedBids = undefined;
    this.sortedAsks = undefined;
    this.last = {
      workerTimestamp: message.workerTimestamp,
      ...(message.blockNumber === undefined ? {} : { blockNumber: message.blockNumber }),
    };
    if (message.checksum !== undefined && this.checksum !== undefined) {
      const actual = this.checksum(this.bids(), this.asks());
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
    this.sortedBids ??= [...this.bidLevels.values()].sort((a, b) => compareIntegerText(b.priceWeiText, a.priceWeiText));
    return depth === undefined ? this.sortedBids : this.sortedBids.slice(0, depth);
  }

  /** Best first: lowest price first. */
  asks(depth?: number): readonly OrderbookLevel[] {
    this.sortedAsks ??= [...this.askLevels.values()].sort((a, b) => compareIntegerText(a.priceWeiText, b.priceWeiText));
    return depth === undefined ? this.sortedAsks : this.sortedAsks.slice(0, depth);
  }

  bestBid(): OrderbookLevel | undefined {
    return this.bids()[0];
  }

  bestAsk(): OrderbookLevel | undefined {
    return this.asks()[0];
  }
}

function setLevels(side: Map<string, OrderbookLevel>, levels: readonly OrderbookLevel[]): void {
  for (const level of levels) {
    if (level.isDeletion) side.delete(level.priceWeiText);
    else side.set(level.priceWeiText, level);
  }
}

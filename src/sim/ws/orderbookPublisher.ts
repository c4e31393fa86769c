import { decimalToWei } from '../../core/decimal.js';
import { orderbookChecksum } from '../../protocol/orderbookChecksum.js';
import type { OrderbookLevelWire, OrderbookWireFrame } from '../../venue/schemas/wsFramesOrderbook.js';
import type { BookSnapshot } from '../exchange/exchangeRecords.js';
import type { FrameMeta } from './frameMeta.js';

/** The wire book of one market: levels keyed by wei price, sorted best first. */
interface WireBook {
  readonly bids: readonly OrderbookLevelWire[];
  readonly asks: readonly OrderbookLevelWire[];
  readonly checksum: number;
}

/**
 * Turns the exchange's decimal books into orderbook frames: a snapshot of the whole book, and
 * updates carrying only the levels that changed since the last publication, as absolute values
 * (quantity "0" deletes a level). Every frame carries the checksum of the full book after it is
 * applied. One publisher is shared by all connections, so every subscriber sees the same diffs.
 */
export class OrderbookPublisher {
  private readonly published = new Map<number, WireBook>();

  /**
   * Publishes `book`: the levels that changed since the last publication, or undefined when
   * nothing did. Call it before `snapshot` so that existing subscribers stay in step.
   */
  update(book: BookSnapshot, meta: FrameMeta): OrderbookWireFrame | undefined {
    const next = toWireBook(book);
    const previous = this.published.get(book.market_id) ?? EMPTY;
    this.published.set(book.market_id, next);
    const bids = changedLevels(previous.bids, next.bids, (a, b) => (a > b ? -1 : a < b ? 1 : 0));
    const asks = changedLevels(previous.asks, next.asks, (a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (bids.length === 0 && asks.length === 0) return undefined;
    return frame('update', book.market_id, bids, asks, next.checksum, meta);
  }

  /** The whole book as last published. */
  snapshot(marketId: number, meta: FrameMeta): OrderbookWireFrame {
    const book = this.published.get(marketId) ?? EMPTY;
    return frame('snapshot', marketId, book.bids, book.asks, book.checksum, meta);
  }

  /** Forgets a market's book, e.g. when nobody is subscribed to it any more. */
  forget(marketId: number): void {
    this.published.delete(marketId);
  }
}

const EMPTY: WireBook = { bids: [], asks: [], checksum: orderbookChecksum([], []) };

function toWireBook(book: BookSnapshot): WireBook {
  const toWire = (side: string) => (level: BookSnapshot['bids'][number], i: number): OrderbookLevelWire => ({
    price: decimalToWei(level.price, `book.${side}[${i}].price`).toString(),
    quantity: decimalToWei(level.quantity, `book.${side}[${i}].quantity`).toString(),
    order_count: level.order_count,
  });
  const bids = book.bids.map(toWire('bids'));
  const asks = book.asks.map(toWire('asks'));
  return { bids, asks, checksum: orderbookChecksum(book.bids, book.asks) };
}

function changedLevels(
  before: readonly OrderbookLevelWire[],
  after: readonly OrderbookLevelWire[],
  order: (a: bigint, b: bigint) => number,
): OrderbookLevelWire[] {
  const old = new Map(before.map((level) => [level.price, level]));
  const changed: OrderbookLevelWire[] = [];
  for (const level of after) {
    const was = old.get(level.price);
    old.delete(level.price);
    if (was === undefined || was.quantity !== level.quantity || was.order_count !== level.order_count) changed.push(level);
  }
  for (const gone of old.values()) changed.push({ price: gone.price, quantity: '0', order_count: 0 });
  return changed.sort((a, b) => order(BigInt(a.price), BigInt(b.price)));
}

function frame(
  type: 'snapshot' | 'update',
  marketId: number,
  bids: readonly OrderbookLevelWire[],
  asks: readonly OrderbookLevelWire[],
  checksum: number,
  meta: FrameMeta,
): OrderbookWireFrame {
  return { channel: 'orderbook', type, market_id: marketId, data: { market_id: marketId, bids: [...bids], asks: [...asks], checksum }, ...meta };
}

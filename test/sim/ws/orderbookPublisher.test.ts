import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import type { BookLevel, BookSnapshot } from '../../../src/sim/exchange/exchangeRecords.js';
import { weiToDecimal } from '../../../src/core/decimal.js';
import { orderbookChecksum } from '../../../src/protocol/orderbookChecksum.js';
import { frameMeta } from '../../../src/sim/ws/frameMeta.js';
import { OrderbookPublisher } from '../../../src/sim/ws/orderbookPublisher.js';
import { orderbookWireFrameSchema, type OrderbookWireFrame } from '../../../src/venue/schemas/wsFramesOrderbook.js';

const meta = frameMeta(new ManualClock());

function book(bids: [string, string, number][], asks: [string, string, number][]): BookSnapshot {
  const level = ([price, quantity, order_count]: [string, string, number]): BookLevel => ({
    price,
    quantity,
    order_count,
  });
  return { market_id: 1, bids: bids.map(level), asks: asks.map(level) };
}

/** What a client does: absolute levels replace, quantity 0 deletes. */
function apply(levels: Map<string, string>, update: readonly { price: string; quantity: string }[]): void {
  for (const level of update) {
    if (level.quantity === '0') levels.delete(level.price);
    else levels.set(level.price, level.quantity);
  }
}

function sorted(levels: Map<string, string>, descending: boolean): { price: string; quantity: string }[] {
  return [...levels]
    .map(([price, quantity]) => ({ price, quantity }))
    .sort((a, b) => (BigInt(a.price) < BigInt(b.price) ? -1 : 1) * (descending ? -1 : 1));
}

describe('OrderbookPublisher', () => {
  it('snapshots the last published book in wei, with the checksum of the whole book', () => {
    const publisher = new OrderbookPublisher();
    publisher.update(book([['100.5', '2', 1]], [['101', '0.25', 3]]), meta);
    const snapshot = orderbookWireFrameSchema.parse(publisher.snapshot(1, meta));
    expect(snapshot.type).toBe('snapshot');
    expect(snapshot.data.bids).toEqual([
      { price: '100500000000000000000', quantity: '2000000000000000000', order_count: 1 },
    ]);
    expect(snapshot.data.asks).toEqual([
      { price: '101000000000000000000', quantity: '250000000000000000', order_count: 3 },
    ]);
    expect(snapshot.data.checksum).toBe(wireChecksum(snapshot.data.bids, snapshot.data.asks));
  });

  it('sends only changed levels, absolute, and deletes removed ones with quantity 0', () => {
    const publisher = new OrderbookPublisher();
    publisher.update(
      book(
        [
          ['100', '1', 1],
          ['99', '1', 1],
        ],
        [['101', '1', 1]],
      ),
      meta,
    );
    const update = publisher.update(
      book(
        [['100', '3', 2]],
        [
          ['101', '1', 1],
          ['102', '4', 1],
        ],
      ),
      meta,
    );
    expect(update?.type).toBe('update');
    expect(update?.data.bids).toEqual([
      { price: '100000000000000000000', quantity: '3000000000000000000', order_count: 2 },
      { price: '99000000000000000000', quantity: '0', order_count: 0 },
    ]);
    expect(update?.data.asks).toEqual([
      { price: '102000000000000000000', quantity: '4000000000000000000', order_count: 1 },
    ]);
  });

  it('publishes nothing when the book did not change', () => {
    const publisher = new OrderbookPublisher();
    const b = book([['100', '1', 1]], []);
    publisher.update(b, meta);
    expect(publisher.update(b, meta)).toBeUndefined();
  });

  it('a client applying snapshot then updates holds the exchange book, and every checksum matches', () => {
    const side = fc.uniqueArray(fc.tuple(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 9 })), {
      selector: ([price]) => price,
      maxLength: 8,
    });
    const books = fc.array(fc.tuple(side, side), { minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(side, side, books, (firstBids, firstAsks, sequence) => {
        const toBook = (bids: [number, number][], asks: [number, number][]): BookSnapshot =>
          book(
            [...bids].sort((a, b) => b[0] - a[0]).map(([p, q]) => [String(p), `0.${q}`, 1]),
            [...asks].sort((a, b) => a[0] - b[0]).map(([p, q]) => [String(p + 100), `0.${q}`, 1]),
          );
        const publisher = new OrderbookPublisher();
        publisher.update(toBook(firstBids, firstAsks), meta);
        const snap = orderbookWireFrameSchema.parse(publisher.snapshot(1, meta));
        const bids = new Map(snap.data.bids.map((l) => [l.price, l.quantity]));
        const asks = new Map(snap.data.asks.map((l) => [l.price, l.quantity]));
        for (const [b, a] of sequence) {
          const next = toBook(b, a);
          const frame: OrderbookWireFrame | undefined = publisher.update(next, meta);
          if (frame !== undefined) {
            const parsed = orderbookWireFrameSchema.parse(frame);
            apply(bids, parsed.data.bids);
            apply(asks, parsed.data.asks);
            expect(parsed.data.checksum).toBe(wireChecksum(sorted(bids, true), sorted(asks, false)));
          }
          const expected = orderbookWireFrameSchema.parse(publisher.snapshot(1, meta));
          expect(sorted(bids, true)).toEqual(expected.data.bids.map(({ price, quantity }) => ({ price, quantity })));
          expect(sorted(asks, false)).toEqual(expected.data.asks.map(({ price, quantity }) => ({ price, quantity })));
        }
      }),
    );
  });
});

/** The checksum of wire (wei) levels, through the protocol's function over exact decimals. */
function wireChecksum(
  bids: readonly { price: string; quantity: string }[],
  asks: readonly { price: string; quantity: string }[],
): number {
  const decimal = (levels: readonly { price: string; quantity: string }[]) =>
    levels.map((l) => ({ price: weiToDecimal(l.price), quantity: weiToDecimal(l.quantity) }));
  return orderbookChecksum(decimal(bids), decimal(asks));
}

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalToWei } from '../../../src/core/decimal.js';
import type { TickBook } from '../../../src/sim/exchange/exchange.js';
import { compileMarket, DEFAULT_MARKETS } from '../../../src/sim/exchange/markets.js';
import { ALICE, BOB, CAROL, T0, limit, market as marketOrder, quietExchange } from '../exchange/exchangeFixture.js';
import { orderbookChecksum, orderbookChecksumOfWire } from '../../../src/protocol/orderbookChecksum.js';
import { OrderbookPublisher } from '../../../src/sim/ws/orderbookPublisher.js';
import { LocalOrderBook } from '../../../src/venue/orderbook/localOrderBook.js';
import { orderbookFrameSchema } from '../../../src/venue/schemas/wsFramesOrderbook.js';
import { canonicalOrderbookFrameSchema } from '../../../src/venue/schemas/wsWireCanonical.js';

const meta = { worker_timestamp: '1000000', block_number: 9, log_index: 0 };

/** Market 1's grid (tick 0.1, step 0.00001): the levels below are given as decimals on it. */
const market = compileMarket(DEFAULT_MARKETS.find((m) => m.market_id === 1)!);

function book(bids: [string, string, number][], asks: [string, string, number][]): TickBook {
  const level = ([price, quantity, orderCount]: [string, string, number]) => ({
    priceTicks: Number(decimalToWei(price, 'price') / market.tickWei),
    steps: decimalToWei(quantity, 'quantity') / market.stepWei,
    orderCount,
  });
  return { market, bids: bids.map(level), asks: asks.map(level) };
}

describe('OrderbookPublisher', () => {
  it('snapshots the last published book in the captured shape: decimal levels, no checksum', () => {
    const publisher = new OrderbookPublisher();
    publisher.update(book([['100.5', '2', 1]], [['101', '0.25', 3]]), meta);
    const snapshot = canonicalOrderbookFrameSchema.parse(publisher.snapshot(1, meta));
    expect(snapshot).toEqual({
      method: 'snapshot',
      channel: 'orderbook',
      type: 'snapshot',
      market_id: '1',
      data: {
        market_id: 1,
        bids: [{ price: '100.5', quantity: '2', order_count: 1 }],
        asks: [{ price: '101', quantity: '0.25', order_count: 3 }],
      },
      level_count: 2,
      block_number: 9,
      log_index: 0,
      worker_timestamp: '1000000',
    });
  });

  it('sends only changed levels, absolute, deletes removed ones with quantity 0, and stamps the checksum at the envelope', () => {
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
    const update = canonicalOrderbookFrameSchema.parse(
      publisher.update(
        book(
          [['100', '3', 2]],
          [
            ['101', '1', 1],
            ['102', '4', 1],
          ],
        ),
        meta,
      ),
    );
    expect(update.type).toBe('update');
    expect(update.data.bids).toEqual([
      { price: '100', quantity: '3', order_count: 2 },
      { price: '99', quantity: '0', order_count: 0 },
    ]);
    expect(update.data.asks).toEqual([{ price: '102', quantity: '4', order_count: 1 }]);
    expect(update.level_count).toBe(3);
    // The whole book after the update: bids 100x3, asks 101x1 and 102x4, interleaved best first.
    const decoded = orderbookFrameSchema.parse(publisher.snapshot(1, meta));
    expect(update.type === 'update' ? update.checksum : undefined).toBe(
      orderbookChecksumOfWire(decoded.bids, decoded.asks),
    );
  });

  it("diffs the exchange's book: changed and new levels absolutely, gone ones with quantity 0, in book order", () => {
    const ex = quietExchange();
    ex.placeOrder(ALICE, limit(0, 649_000, 20), T0);
    ex.placeOrder(ALICE, limit(0, 648_000, 20), T0);
    const gone = ex.placeOrder(ALICE, limit(1, 651_000, 20), T0).order;
    const publisher = new OrderbookPublisher();
    publisher.update(ex.bookTicks(1), meta);
    ex.placeOrder(BOB, limit(0, 649_000, 15), T0);
    ex.placeOrder(BOB, limit(0, 649_500, 30), T0);
    ex.placeOrder(BOB, limit(1, 652_000, 30), T0);
    ex.cancelOrder(ALICE, 1, BigInt(gone.resting_order_id));
    const update = publisher.update(ex.bookTicks(1), meta);
    expect(update?.data).toEqual({
      market_id: 1,
      bids: [
        { price: '64950', quantity: '0.0003', order_count: 1 },
        { price: '64900', quantity: '0.00035', order_count: 2 },
      ],
      asks: [
        { price: '65100', quantity: '0', order_count: 0 },
        { price: '65200', quantity: '0.0003', order_count: 1 },
      ],
    });
    // The snapshot is the exchange's book as REST shows it.
    const whole = ex.book(1);
    expect(publisher.snapshot(1, meta).data).toEqual({ market_id: 1, bids: whole.bids, asks: whole.asks });
  });

  it('publishes nothing when the book did not change', () => {
    const publisher = new OrderbookPublisher();
    const b = book([['100', '1', 1]], []);
    publisher.update(b, meta);
    expect(publisher.update(b, meta)).toBeUndefined();
  });

  it("the client's local book, fed the snapshot then the updates, holds the exchange book and verifies every checksum", () => {
    const side = fc.uniqueArray(fc.tuple(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 9 })), {
      selector: ([price]) => price,
      maxLength: 8,
    });
    const books = fc.array(fc.tuple(side, side), { minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(side, side, books, (firstBids, firstAsks, sequence) => {
        const toBook = (bids: [number, number][], asks: [number, number][]): TickBook =>
          book(
            [...bids].sort((a, b) => b[0] - a[0]).map(([p, q]) => [`${p}.5`, `0.${q}`, 1]),
            [...asks].sort((a, b) => a[0] - b[0]).map(([p, q]) => [String(p + 100), `0.${q}`, 1]),
          );
        const publisher = new OrderbookPublisher();
        publisher.update(toBook(firstBids, firstAsks), meta);
        const local = new LocalOrderBook(1, orderbookChecksumOfWire);
        expect(local.apply(orderbookFrameSchema.parse(publisher.snapshot(1, meta))).kind).toBe('applied');
        for (const [b, a] of sequence) {
          const frame = publisher.update(toBook(b, a), meta);
          if (frame !== undefined) {
            canonicalOrderbookFrameSchema.parse(frame);
            expect(local.apply(orderbookFrameSchema.parse(frame))).toEqual({ kind: 'applied' });
          }
          const expected = orderbookFrameSchema.parse(publisher.snapshot(1, meta));
          // The checksum kept per standing level is the rule's, worked out again from the whole book.
          if (frame?.type === 'update') expect(frame.checksum).toBe(orderbookChecksum(expected.bids, expected.asks));
          const view = (levels: readonly { price: string; quantity: string }[]): string[][] =>
            levels.map((l) => [l.price, l.quantity]);
          expect(view(local.bids())).toEqual(view(expected.bids));
          expect(view(local.asks())).toEqual(view(expected.asks));
        }
      }),
    );
  });

  it('reading only the changed levels from the exchange publishes the frames a diff of the whole book does', () => {
    const price = fc.integer({ min: 998, max: 1003 });
    const op = fc.oneof(
      fc.record({ kind: fc.constant('rest' as const), side: fc.constantFrom(0 as const, 1 as const), price }),
      fc.record({ kind: fc.constant('take' as const), side: fc.constantFrom(0 as const, 1 as const) }),
      fc.record({ kind: fc.constant('cancel' as const), nth: fc.nat() }),
      fc.record({
        kind: fc.constant('show' as const),
        side: fc.constantFrom(0 as const, 1 as const),
        price,
        steps: fc.constantFrom(0, 20, 35),
      }),
      fc.record({ kind: fc.constant('forget' as const) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const ex = quietExchange();
        const whole = new OrderbookPublisher();
        const changed = new OrderbookPublisher();
        // A second reader of the same exchange takes nothing from the first.
        const other = new OrderbookPublisher();
        const open: bigint[] = [];
        for (const o of ops) {
          try {
            if (o.kind === 'rest') {
              const placed = ex.placeOrder(BOB, limit(o.side, o.side === 0 ? o.price - 3 : o.price + 3, 25), T0);
              open.push(BigInt(placed.order.resting_order_id));
            } else if (o.kind === 'take') {
              ex.placeOrder(CAROL, marketOrder(o.side, o.side === 0 ? 1010 : 990, 30), T0);
            } else if (o.kind === 'cancel' && open.length > 0) {
              ex.cancelOrder(BOB, 1, open.splice(o.nth % open.length, 1)[0]!);
            } else if (o.kind === 'show') {
              ex.showRecorded(ALICE, 1, [{ side: o.side, priceTicks: o.price, steps: o.steps }], T0);
            } else if (o.kind === 'forget') {
              whole.forget(1);
              changed.forget(1);
            }
          } catch {
            // A refused order (filled or cancelled already) changes nothing.
          }
          expect(changed.updateFrom(ex, 1, meta)).toEqual(whole.update(ex.bookTicks(1), meta));
          expect(changed.snapshot(1, meta)).toEqual(whole.snapshot(1, meta));
        }
        expect(other.updateFrom(ex, 1, meta)).toEqual(new OrderbookPublisher().update(ex.bookTicks(1), meta));
      }),
    );
  });
});

import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../../src/sim/exchange/exchange.js';
import type { ExchangeEvent } from '../../../src/sim/exchange/exchangeEvents.js';
import type { HistoryStamp } from '../../../src/sim/exchange/historyEntry.js';
import { SYNTHETIC_MAKER_ACCOUNTS } from '../../../src/sim/exchange/syntheticMakers.js';
import { ALICE, BOB, CAROL, T0, limit, market, ofType, quietExchange } from './exchangeFixture.js';

/**
 * The per-account history behind GET /v1/orders, /v1/orders/by-id and /v1/trade-history, fed as
 * SimRuntime feeds it: each action's events with the stamp of the transaction that mined them.
 * Market 1: tick 0.1, step 0.00001; fees maker 2 bps, taker 5 bps.
 */
let tx = 0;
function stampAt(blockNumber: number, timestampMs = T0): HistoryStamp {
  tx += 1;
  return { blockNumber, timestampMs, txHash: `0x${tx.toString(16).padStart(64, '0')}` };
}

/** Runs one exchange action as one mined transaction and records it; returns the result and its stamp. */
function act<R extends { readonly events: readonly ExchangeEvent[] }>(
  ex: Exchange,
  stamp: HistoryStamp,
  run: () => R,
): R & { stamp: HistoryStamp } {
  const result = run();
  ex.history.record(result.events, stamp);
  return { ...result, stamp };
}

const ALL = { page: 1, limit: 1000 };

describe('order history records', () => {
  it('records a resting order with the placing transaction and follows it through a partial fill, a full fill and a cancel', () => {
    const ex = quietExchange();
    const placed = act(ex, stampAt(5, T0 + 1), () =>
      ex.placeOrder(ALICE, limit(0, 650_000, 40, { client_order_id: 42n }), T0 + 1),
    );
    const id = placed.order.order_id;
    expect(ex.history.order(id)).toEqual({
      id,
      market_id: 1,
      sender: ALICE,
      side: 'BUY',
      type: 'LIMIT',
      time_in_force: 'GTC',
      status: 'ORDER_STATUS_OPEN',
      price: '65000',
      size: '0.0004',
      filled_size: '0',
      avg_price: '0',
      post_only: false,
      reduce_only: false,
      resting_order_id: placed.order.resting_order_id,
      wide_order_id: placed.order.wide_order_id,
      client_order_id: '42',
      created_at: ((BigInt(T0) + 1n) * 1_000_000n).toString(),
      block_number: 5,
      log_index: 0,
      tx_hash: placed.stamp.txHash,
      fee_bps: 2,
      stop_price: '0',
      cancel_requested: false,
    });

    act(ex, stampAt(6), () => ex.placeOrder(BOB, limit(1, 650_000, 15), T0));
    expect(ex.history.order(id)).toMatchObject({
      status: 'ORDER_STATUS_OPEN',
      filled_size: '0.00015',
      avg_price: '65000',
      block_number: 5,
    });
    act(ex, stampAt(7), () => ex.placeOrder(BOB, limit(1, 650_000, 25), T0));
    expect(ex.history.order(id)).toMatchObject({
      status: 'ORDER_STATUS_FILLED',
      filled_size: '0.0004',
      avg_price: '65000',
      tx_hash: placed.stamp.txHash,
    });

    const other = act(ex, stampAt(8), () => ex.placeOrder(ALICE, limit(0, 640_000, 20), T0));
    act(ex, stampAt(9), () => ex.cancelOrder(ALICE, 1, BigInt(other.order.resting_order_id)));
    expect(ex.history.order(other.order.order_id)).toMatchObject({
      status: 'ORDER_STATUS_CANCELLED',
      filled_size: '0',
      block_number: 8,
    });
  });

  it('gives a taker that swept two prices the size-weighted average, rounded half away from zero at 18 decimals, and the taker fee rate', () => {
    const ex = quietExchange();
    act(ex, stampAt(2), () => ex.placeOrder(BOB, limit(1, 650_000, 15), T0));
    act(ex, stampAt(2), () => ex.placeOrder(BOB, limit(1, 650_001, 30), T0));
    const taker = act(ex, stampAt(3), () => ex.placeOrder(ALICE, market(0, 650_010, 45), T0));
    // (65000 × 15 + 65000.1 × 30) / 45 = 65000.0666…
    expect(ex.history.order(taker.order.order_id)).toMatchObject({
      type: 'MARKET',
      time_in_force: 'IOC',
      status: 'ORDER_STATUS_FILLED',
      price: '65001',
      size: '0.00045',
      filled_size: '0.00045',
      avg_price: '65000.066666666666666667',
      fee_bps: 5,
    });
    // Its first event is its first trade, the first event of block 3.
    expect(ex.history.order(taker.order.order_id)?.log_index).toBe(0);
  });

  it('numbers log_index across every event mined in a block and restarts it in the next block', () => {
    const ex = quietExchange();
    const first = act(ex, stampAt(10), () => ex.placeOrder(ALICE, limit(0, 640_000, 20), T0));
    const second = act(ex, stampAt(10), () => ex.placeOrder(ALICE, limit(0, 640_001, 20), T0));
    const third = act(ex, stampAt(11), () => ex.placeOrder(ALICE, limit(0, 640_002, 20), T0));
    const eventsBefore = first.events.length;
    expect(ex.history.order(second.order.order_id)?.log_index).toBe(eventsBefore);
    expect(ex.history.order(third.order.order_id)?.log_index).toBe(0);
  });

  it('an IOC that found nothing is recorded CANCELLED at the taker rate', () => {
    const ex = quietExchange();
    const ioc = act(ex, stampAt(2), () => ex.placeOrder(ALICE, market(0, 650_000, 20), T0));
    expect(ex.history.order(ioc.order.order_id)).toMatchObject({
      status: 'ORDER_STATUS_CANCELLED',
      filled_size: '0',
      avg_price: '0',
      fee_bps: 5,
    });
  });

  it('finds an order by id with or without 0x and in any case; an unknown id is undefined', () => {
    const ex = quietExchange();
    const { order } = act(ex, stampAt(2), () => ex.placeOrder(ALICE, limit(0, 640_000, 20), T0));
    expect(ex.history.order(order.order_id.slice(2).toUpperCase())?.id).toBe(order.order_id);
    expect(ex.history.order(`0x${'ab'.repeat(32)}`)).toBeUndefined();
  });

  it('keeps no history for the simulator own liquidity accounts', () => {
    const ex = quietExchange({}, [ALICE, SYNTHETIC_MAKER_ACCOUNTS[0]!]);
    const bot = act(ex, stampAt(2), () => ex.placeOrder(SYNTHETIC_MAKER_ACCOUNTS[0]!, limit(1, 650_000, 20), T0));
    act(ex, stampAt(3), () => ex.placeOrder(ALICE, limit(0, 650_000, 20), T0));
    expect(ex.history.order(bot.order.order_id)).toBeUndefined();
    expect(ex.history.orders(SYNTHETIC_MAKER_ACCOUNTS[0]!, {}, ALL).items).toEqual([]);
    expect(ex.history.fills(SYNTHETIC_MAKER_ACCOUNTS[0]!, ALL).items).toEqual([]);
    expect(ex.history.fills(ALICE, ALL).items).toHaveLength(1);
  });
});

describe('order history queries', () => {
  function threeStatuses() {
    const ex = quietExchange();
    const open = act(ex, stampAt(2), () => ex.placeOrder(ALICE, limit(0, 640_000, 20), T0)).order.order_id;
    const filled = act(ex, stampAt(2), () => ex.placeOrder(ALICE, limit(0, 650_000, 20), T0)).order.order_id;
    act(ex, stampAt(3), () => ex.placeOrder(BOB, limit(1, 650_000, 20), T0));
    const cancelled = act(ex, stampAt(3), () => ex.placeOrder(ALICE, limit(0, 630_000, 20), T0)).order;
    act(ex, stampAt(4), () => ex.cancelOrder(ALICE, 1, BigInt(cancelled.resting_order_id)));
    return { ex, open, filled, cancelled: cancelled.order_id };
  }

  it('lists newest first by default, oldest first on request, and filters by statuses and order ids', () => {
    const { ex, open, filled, cancelled } = threeStatuses();
    const ids = (filter: Parameters<typeof ex.history.orders>[1]) =>
      ex.history.orders(ALICE, filter, ALL).items.map((o) => o.id);
    expect(ids({})).toEqual([cancelled, filled, open]);
    expect(ids({ oldestFirst: true })).toEqual([open, filled, cancelled]);
    expect(ids({ statuses: new Set(['ORDER_STATUS_OPEN', 'ORDER_STATUS_CANCELLED'] as const) })).toEqual([
      cancelled,
      open,
    ]);
    expect(ids({ statuses: new Set(['ORDER_STATUS_FILLED'] as const) })).toEqual([filled]);
    expect(ids({ statuses: new Set(['ORDER_STATUS_NONE'] as const) })).toEqual([]);
    expect(ids({ orderIds: new Set([open, cancelled]) })).toEqual([cancelled, open]);
    expect(ex.history.orders(BOB, {}, ALL).items.map((o) => o.status)).toEqual(['ORDER_STATUS_FILLED']);
    expect(ex.history.orders(CAROL, {}, ALL)).toEqual({ items: [], hasNextPage: false });
  });

  it('pages with a next-page flag that is false exactly on the last page', () => {
    const { ex, open, filled, cancelled } = threeStatuses();
    const page = (n: number, limit: number) => ex.history.orders(ALICE, {}, { page: n, limit });
    expect(page(1, 2)).toMatchObject({ hasNextPage: true });
    expect(page(1, 2).items.map((o) => o.id)).toEqual([cancelled, filled]);
    expect(page(2, 2).items.map((o) => o.id)).toEqual([open]);
    expect(page(2, 2).hasNextPage).toBe(false);
    expect(page(1, 3).hasNextPage).toBe(false);
    expect(page(3, 2)).toEqual({ items: [], hasNextPage: false });
  });
});

describe('fill history', () => {
  it('holds each fill exactly as the fills events carried it, newest first, paged', () => {
    const ex = quietExchange();
    act(ex, stampAt(2), () => ex.placeOrder(BOB, limit(1, 650_000, 15), T0));
    act(ex, stampAt(2), () => ex.placeOrder(BOB, limit(1, 650_001, 15), T0));
    const taker = act(ex, stampAt(3), () => ex.placeOrder(ALICE, limit(0, 650_001, 30), T0 + 5));
    const sent = ofType(taker.events, 'fill')
      .filter((e) => e.account === ALICE)
      .map((e) => e.fill);
    expect(sent).toHaveLength(2);
    expect(ex.history.fills(ALICE, ALL).items).toEqual([...sent].reverse());
    expect(ex.history.fills(ALICE, { page: 1, limit: 1 })).toEqual({ items: [sent[1]], hasNextPage: true });
    expect(ex.history.fills(ALICE, { page: 2, limit: 1 })).toEqual({ items: [sent[0]], hasNextPage: false });
    expect(ex.history.fills(BOB, ALL).items.map((f) => f.liquidity_indicator)).toEqual(['MAKER', 'MAKER']);
  });
});

describe('retention', () => {
  it('keeps only the newest orders and fills per account; a forgotten order is not brought back by a later fill', () => {
    const ex = quietExchange({ historyRetention: 2 });
    const oldest = act(ex, stampAt(2), () => ex.placeOrder(ALICE, limit(0, 640_000, 20), T0)).order;
    const middle = act(ex, stampAt(2), () => ex.placeOrder(ALICE, limit(0, 639_000, 20), T0)).order;
    const newest = act(ex, stampAt(2), () => ex.placeOrder(ALICE, limit(0, 638_000, 20), T0)).order;
    expect(ex.history.orders(ALICE, {}, ALL).items.map((o) => o.id)).toEqual([newest.order_id, middle.order_id]);
    expect(ex.history.order(oldest.order_id)).toBeUndefined();

    // The forgotten order still rests and now fills: the fill is kept, the order is not recreated.
    act(ex, stampAt(3), () => ex.placeOrder(BOB, limit(1, 640_000, 20), T0));
    expect(ex.history.order(oldest.order_id)).toBeUndefined();
    expect(ex.history.orders(ALICE, {}, ALL).items.map((o) => o.id)).toEqual([newest.order_id, middle.order_id]);
    expect(ex.history.fills(ALICE, ALL).items.map((f) => f.order_id)).toEqual([oldest.order_id]);
    expect(ex.history.size).toEqual({ accounts: 2, orders: 3 });
  });
});

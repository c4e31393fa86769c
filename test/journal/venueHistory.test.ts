import { describe, expect, it } from 'vitest';
import { HISTORY_MARGIN_MS, readVenueHistory, type HistoryReads } from '../../src/journal/venueHistory.js';
import type { OrderHistoryQuery, TradeHistoryQuery } from '../../src/venue/rest/historyEndpoints.js';
import type { OrderHistoryRecord } from '../../src/venue/schemas/restHistory.js';
import type { FillRecord } from '../../src/venue/schemas/wsFramesPrivate.js';
import { VenueError } from '../../src/venue/venueError.js';

const ACCOUNT = '0x00000000000000000000000000000000000000aa';
const NOW_MS = 1_700_000_000_000;
const ns = (ms: number) => BigInt(ms) * 1_000_000n;
const orderId = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

function fill(id: string, atMs: number): FillRecord {
  return {
    id,
    market_id: 1,
    order_id: orderId(1),
    side: 'buy',
    price: '100',
    size: '0.001',
    fee: '0.01',
    time: ns(atMs),
    liquidity_indicator: 'MAKER',
  };
}

function order(n: number, atMs: number, extra: Partial<OrderHistoryRecord> = {}): OrderHistoryRecord {
  return {
    id: orderId(n),
    market_id: '1',
    side: 'BUY',
    type: 'LIMIT',
    status: 'ORDER_STATUS_FILLED',
    price: '100',
    size: '0.001',
    filled_size: '0.001',
    avg_price: '100',
    created_at: ns(atMs),
    ...extra,
  };
}

/** A venue's history reads over fixed lists (newest first), recording every page asked. */
function venue(fills: FillRecord[], orders: OrderHistoryRecord[] = []) {
  const tradePages: number[] = [];
  const orderQueries: OrderHistoryQuery[] = [];
  const page = <T>(items: T[], q: { page?: number; limit?: number }) => {
    const limit = q.limit ?? 100;
    const start = ((q.page ?? 1) - 1) * limit;
    return { items: items.slice(start, start + limit), more: start + limit < items.length, page: q.page ?? 1 };
  };
  const rest: Required<HistoryReads> = {
    tradeHistory: async (q: TradeHistoryQuery) => {
      tradePages.push(q.page ?? 1);
      const p = page(fills, q);
      return { trades: p.items, page: p.page, has_next_page: p.more };
    },
    orderHistory: async (q: OrderHistoryQuery) => {
      orderQueries.push(q);
      const matching = q.orderIds === undefined ? orders : orders.filter((o) => q.orderIds!.includes(o.id));
      const p = page(matching, q);
      return { orders: p.items, page: p.page, has_next_page: p.more };
    },
  };
  return { rest, tradePages, orderQueries };
}

describe('readVenueHistory', () => {
  it('reads fills back to the bound less the margin and stops paging at the first older one', async () => {
    // Newest first, one fill a minute: pages of 2.
    const fills = Array.from({ length: 10 }, (_, i) => fill(`f${i}`, NOW_MS - i * 60_000));
    const v = venue(fills);
    const history = await readVenueHistory(v.rest, {
      account: ACCOUNT,
      fillsSinceMs: NOW_MS - 2 * 60_000,
      orderIds: [],
      pageSize: 2,
    });
    if (!history.available) throw new Error(history.reason);
    // f0..f2 are inside the window, f3 is exactly at the margin's edge; f4 is older: the walk ends there.
    expect(history.fills.map((f) => f.id)).toEqual(['f3', 'f2', 'f1', 'f0']);
    expect(history.fillsFromMs).toBe(NOW_MS - 2 * 60_000 - HISTORY_MARGIN_MS);
    expect(v.tradePages).toEqual([1, 2, 3]);
  });

  it('reads nothing when nothing is asked', async () => {
    const v = venue([fill('f0', NOW_MS)]);
    expect((await readVenueHistory(v.rest, { account: ACCOUNT, orderIds: [] })).available).toBe(true);
    expect(v.tradePages).toEqual([]);
    expect(v.orderQueries).toEqual([]);
  });

  it('reads orders by id in chunks of 100 and finds placements by client_order_id within their window', async () => {
    const orders = [
      order(3, NOW_MS, { client_order_id: 7n, status: 'ORDER_STATUS_CANCELLED', filled_size: '0' }),
      ...Array.from({ length: 150 }, (_, i) => order(1000 + i, NOW_MS - 1000)),
      // Outside the window of the placement: never reached.
      order(4, NOW_MS - 20 * 60_000, { client_order_id: 8n }),
    ];
    const v = venue([], orders);
    const ids = orders.slice(1, 151).map((o) => o.id.toUpperCase().replace('0X', '0x'));
    const history = await readVenueHistory(v.rest, {
      account: ACCOUNT,
      orderIds: ids,
      clientOrderIds: { ids: new Set(['7', '8']), sinceMs: NOW_MS - 5 * 60_000 },
      pageSize: 50,
    });
    if (!history.available) throw new Error(history.reason);
    expect(history.order(orderId(1149))?.status).toBe('ORDER_STATUS_FILLED');
    expect(v.orderQueries.filter((q) => q.orderIds !== undefined).map((q) => q.orderIds!.length)).toEqual([100, 50]);
    expect(history.byClientOrderId('7')?.id).toBe(orderId(3));
    expect(history.byClientOrderId('8')).toBeUndefined();
    // The client_order_id walk: 152 orders newest first, pages of 50, ends at the first older than the window.
    expect(v.orderQueries.filter((q) => q.orderIds === undefined).map((q) => q.page)).toEqual([1, 2, 3, 4]);
  });

  it('is unavailable when the venue has no such endpoint (404), or the client no history reads', async () => {
    const v = venue([]);
    const notFound = new VenueError({
      httpStatus: 404,
      rawBody: JSON.stringify({ error: { code: 'NotFound', message: 'NotFound: no route' } }),
      endpoint: 'GET /v1/trade-history',
    });
    const missing = await readVenueHistory(
      { ...v.rest, tradeHistory: () => Promise.reject(notFound) },
      { account: ACCOUNT, fillsSinceMs: NOW_MS, orderIds: [] },
    );
    expect(missing).toMatchObject({ available: false, reason: expect.stringContaining('HTTP 404') });
    expect(await readVenueHistory({}, { account: ACCOUNT, fillsSinceMs: NOW_MS, orderIds: [] })).toEqual({
      available: false,
      reason: 'the REST client given has no history reads',
    });
  });

  it('throws a transient failure, so the whole reconciliation is tried again', async () => {
    const v = venue([]);
    const unavailable = new VenueError({
      httpStatus: 503,
      rawBody: JSON.stringify({ error: { code: 'Unavailable', message: 'Unavailable: upstream' } }),
      endpoint: 'GET /v1/orders',
    });
    await expect(
      readVenueHistory(
        { ...v.rest, orderHistory: () => Promise.reject(unavailable) },
        { account: ACCOUNT, orderIds: [orderId(1)] },
      ),
    ).rejects.toBe(unavailable);
  });
});

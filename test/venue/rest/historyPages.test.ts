import { describe, expect, it } from 'vitest';
import { isPerpbotError } from '../../../src/core/perpbotError.js';
import type { OrderHistoryQuery, TradeHistoryQuery } from '../../../src/venue/rest/historyEndpoints.js';
import { collectAll, orderHistoryRecords, tradeHistoryRecords } from '../../../src/venue/rest/historyPages.js';
import type { RestClient } from '../../../src/venue/rest/restClient.js';
import {
  orderHistoryRecordSchema,
  type OrderHistory,
  type OrderHistoryRecord,
  type TradeHistory,
} from '../../../src/venue/schemas/restHistory.js';
import { fillRecordWireSchema, type FillRecord } from '../../../src/venue/schemas/wsFramesPrivate.js';

const ACCOUNT = '0x1111111111111111111111111111111111111111';

function order(n: number): OrderHistoryRecord {
  return orderHistoryRecordSchema.parse({
    id: `0x${n.toString(16).padStart(64, '0')}`,
    market_id: 1,
    side: 'BUY',
    type: 'LIMIT',
    status: 'ORDER_STATUS_OPEN',
    price: '1',
    size: '1',
    filled_size: '0',
    avg_price: '0',
    created_at: String(n),
  });
}

function fill(n: number): FillRecord {
  return fillRecordWireSchema.parse({
    id: String(n),
    market_id: 1,
    order_id: '0xab',
    side: 'BUY',
    price: '1',
    size: '1',
    fee: '0',
    time: String(n),
    liquidity_indicator: 'TAKER',
  });
}

/** A venue whose history is `items` newest first; `between` runs before each page is answered (to change the history mid-walk). */
function fakeOrders(items: OrderHistoryRecord[], between: (page: number) => void = () => {}) {
  const asked: OrderHistoryQuery[] = [];
  const rest: Pick<RestClient, 'orderHistory'> = {
    orderHistory: async (query) => {
      asked.push(query);
      const page = query.page ?? 1;
      between(page);
      const limit = query.limit ?? 100;
      const slice = items.slice((page - 1) * limit, page * limit);
      return { orders: slice, page, has_next_page: page * limit < items.length } satisfies OrderHistory;
    },
  };
  return { rest, asked };
}

describe('orderHistoryRecords', () => {
  it('walks pages until has_next_page is false, passing the query on every page', async () => {
    const items = [5, 4, 3, 2, 1].map(order);
    const { rest, asked } = fakeOrders(items);
    const read = await collectAll(
      orderHistoryRecords(rest, { account: ACCOUNT, statuses: ['ORDER_STATUS_OPEN'] }, { pageSize: 2 }),
    );
    expect(read.map((o) => o.created_at)).toEqual([5n, 4n, 3n, 2n, 1n]);
    expect(asked).toEqual(
      [1, 2, 3].map((page) => ({ account: ACCOUNT, statuses: ['ORDER_STATUS_OPEN'], page, limit: 2 })),
    );
  });

  it('yields each order once when a new order pushes the others down a page mid-walk', async () => {
    const items = [3, 2, 1].map(order);
    const { rest } = fakeOrders(items, (page) => {
      if (page === 2) items.unshift(order(4));
    });
    const read = await collectAll(orderHistoryRecords(rest, { account: ACCOUNT }, { pageSize: 2 }));
    expect(read.map((o) => o.created_at)).toEqual([3n, 2n, 1n]);
  });

  it('stops with VENUE_HISTORY_TOO_LONG past maxPages instead of cutting the history silently', async () => {
    const { rest, asked } = fakeOrders([6, 5, 4, 3, 2, 1].map(order));
    const error = await collectAll(orderHistoryRecords(rest, { account: ACCOUNT }, { pageSize: 2, maxPages: 2 })).catch(
      (e: unknown) => e,
    );
    expect(isPerpbotError(error) && error.code).toBe('VENUE_HISTORY_TOO_LONG');
    expect(String((error as Error).message)).toMatch(/more than 2 pages of 2 records/);
    expect(asked).toHaveLength(2);
  });

  it('ends on an empty page even if the venue claims another one', async () => {
    let calls = 0;
    const rest: Pick<RestClient, 'orderHistory'> = {
      orderHistory: async () => {
        calls += 1;
        return { orders: [], page: 1, has_next_page: true };
      },
    };
    expect(await collectAll(orderHistoryRecords(rest, { account: ACCOUNT }))).toEqual([]);
    expect(calls).toBe(1);
  });
});

describe('tradeHistoryRecords', () => {
  it('walks every page of fills, each fill id once, asking the venue maximum by default', async () => {
    const items = [4, 3, 3, 2, 1].map(fill);
    const asked: TradeHistoryQuery[] = [];
    const rest: Pick<RestClient, 'tradeHistory'> = {
      tradeHistory: async (query) => {
        asked.push(query);
        const page = query.page ?? 1;
        const limit = 3; // the venue caps the page below what was asked
        return {
          trades: items.slice((page - 1) * limit, page * limit),
          page,
          has_next_page: page * limit < items.length,
        } satisfies TradeHistory;
      },
    };
    const read = await collectAll(tradeHistoryRecords(rest, { account: ACCOUNT }));
    expect(read.map((f) => f.id)).toEqual(['4', '3', '2', '1']);
    expect(asked.map((q) => [q.page, q.limit])).toEqual([
      [1, 1000],
      [2, 1000],
    ]);
  });
});

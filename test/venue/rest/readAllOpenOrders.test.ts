import { describe, expect, it } from 'vitest';
import { isPerpbotError } from '../../../src/core/perpbotError.js';
import { readAllOpenOrders } from '../../../src/venue/rest/readAllOpenOrders.js';
import type { RestClient } from '../../../src/venue/rest/restClient.js';
import { openOrderSchema, type OpenOrder, type OpenOrders } from '../../../src/venue/schemas/restOrders.js';
import type { OpenOrdersQueryWire } from '../../../src/venue/schemas/restQueries.js';

const ACCOUNT = '0x1111111111111111111111111111111111111111';

function open(n: number): OpenOrder {
  return openOrderSchema.parse({
    order_id: `0x${n.toString(16).padStart(64, '0')}`,
    resting_order_id: String(n),
    wide_order_id: String(n * 2),
    market_id: '1',
    account: ACCOUNT,
    side: 0,
    size_steps: 20,
    price_ticks: 100 + n,
    order_type: 1,
    time_in_force: 0,
    post_only: false,
    reduce_only: false,
  });
}

/** A venue serving `book` oldest first by start_index/limit; `before` runs before each answer. */
function fakeVenue(book: OpenOrder[], options: { withTotal?: boolean; before?: (call: number) => void } = {}) {
  const asked: OpenOrdersQueryWire[] = [];
  const rest: Pick<RestClient, 'openOrders'> = {
    openOrders: async (query) => {
      asked.push(query);
      options.before?.(asked.length);
      const start = Number(query.start_index ?? 0);
      const limit = Number(query.limit ?? 1000);
      const orders = book.slice(start, start + limit);
      return (options.withTotal === false ? { orders } : { orders, total_orders: book.length }) satisfies OpenOrders;
    },
  };
  return { rest, asked };
}

describe('readAllOpenOrders', () => {
  it('reads three pages by start_index and limit until total_orders is reached', async () => {
    const book = [1, 2, 3, 4, 5, 6, 7].map(open);
    const { rest, asked } = fakeVenue(book);
    const snapshot = await readAllOpenOrders(rest, { account: ACCOUNT, marketId: 1 }, { pageSize: 3 });
    expect(snapshot.orders).toEqual(book);
    expect(snapshot).toMatchObject({ totalOrders: 7, pages: 3 });
    expect(asked.map((q) => [q.market_id, q.start_index, q.limit])).toEqual([
      ['1', '0', '3'],
      ['1', '3', '3'],
      ['1', '6', '3'],
    ]);
  });

  it('sends order_ids comma-separated', async () => {
    const { rest, asked } = fakeVenue([open(1)]);
    await readAllOpenOrders(rest, { account: ACCOUNT, marketId: '2', orderIds: ['0xa', '0xb'] });
    expect(asked[0]).toMatchObject({ market_id: '2', order_ids: '0xa,0xb', start_index: '0', limit: '1000' });
  });

  it('walks again when an order left the book mid-walk (which would have hidden another one)', async () => {
    const book = [1, 2, 3, 4, 5].map(open);
    const { rest, asked } = fakeVenue(book, {
      before: (call) => {
        if (call === 2) book.splice(0, 1); // order 1 filled between page 1 and page 2: order 3 would be skipped
      },
    });
    const snapshot = await readAllOpenOrders(rest, { account: ACCOUNT, marketId: 1 }, { pageSize: 2 });
    expect(snapshot.orders.map((o) => o.resting_order_id)).toEqual([2n, 3n, 4n, 5n]);
    expect(snapshot.totalOrders).toBe(4);
    expect(asked.length).toBe(2 + 2);
  });

  it('fails with VENUE_OPEN_ORDERS_UNSTABLE when every walk sees the book change', async () => {
    const book = [1, 2, 3].map(open);
    let next = 10;
    const { rest } = fakeVenue(book, { before: (call) => call % 2 === 0 && book.push(open(next++)) });
    const error = await readAllOpenOrders(rest, { account: ACCOUNT, marketId: 1 }, { pageSize: 2, attempts: 2 }).catch(
      (e: unknown) => e,
    );
    expect(isPerpbotError(error) && error.code).toBe('VENUE_OPEN_ORDERS_UNSTABLE');
    expect((error as Error).message).toMatch(/after 2 walks: total_orders went from \d+ to \d+/);
  });

  it('without total_orders, a short page ends the walk', async () => {
    const book = [1, 2, 3, 4].map(open);
    const { rest, asked } = fakeVenue(book, { withTotal: false });
    const snapshot = await readAllOpenOrders(rest, { account: ACCOUNT, marketId: 1 }, { pageSize: 3 });
    expect(snapshot).toMatchObject({ totalOrders: 4, pages: 2 });
    expect(asked).toHaveLength(2);
  });

  it('fails with VENUE_OPEN_ORDERS_TOO_MANY past maxPages', async () => {
    const { rest } = fakeVenue([1, 2, 3, 4, 5].map(open));
    const error = await readAllOpenOrders(rest, { account: ACCOUNT, marketId: 1 }, { pageSize: 2, maxPages: 2 }).catch(
      (e: unknown) => e,
    );
    expect(isPerpbotError(error) && error.code).toBe('VENUE_OPEN_ORDERS_TOO_MANY');
  });
});

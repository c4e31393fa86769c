import { describe, expect, it } from 'vitest';
import { isPerpbotError } from '../../../src/core/perpbotError.js';
import { createRestClient, type RestClient, type TpslOrdersQuery } from '../../../src/venue/rest/restClient.js';
import { readAllTpslOrders } from '../../../src/venue/rest/tpslPages.js';
import { tpslOrderRecordSchema, type TpslOrderRecord } from '../../../src/venue/schemas/restTpsl.js';

const ACCOUNT = '0x1111111111111111111111111111111111111111';

function order(n: number): TpslOrderRecord {
  return tpslOrderRecordSchema.parse({
    order_id: `conditional-${n}`,
    market_id: '1',
    side: 'SELL',
    size: '0.001',
    stop_type: n % 2 === 0 ? 'TAKE_PROFIT' : 'STOP_LOSS',
    stop_price: '70000',
    status: 'TPSL_ORDER_STATUS_ACCEPTED',
  });
}

/** A venue serving `list` by page (from 1) and limit; `before` runs before each answer. */
function fakeVenue(list: TpslOrderRecord[], options: { withTotal?: boolean; before?: (call: number) => void } = {}) {
  const asked: TpslOrdersQuery[] = [];
  const rest: Pick<RestClient, 'tpslOrders'> = {
    tpslOrders: async (query) => {
      asked.push(query);
      options.before?.(asked.length);
      const limit = query.limit ?? 100;
      const start = ((query.page ?? 1) - 1) * limit;
      const orders = list.slice(start, start + limit);
      return options.withTotal === false ? { orders } : { orders, total: list.length, page: query.page, limit };
    },
  };
  return { rest, asked };
}

describe('readAllTpslOrders', () => {
  it('reads pages from 1 until total, keeping the query (both stop types unless asked)', async () => {
    const list = [1, 2, 3, 4, 5].map(order);
    const { rest, asked } = fakeVenue(list);
    const snapshot = await readAllTpslOrders(rest, { account: ACCOUNT, marketId: 1 }, { pageSize: 2 });
    expect(snapshot.orders).toEqual(list);
    expect(snapshot).toMatchObject({ total: 5, pages: 3 });
    expect(asked.map((q) => [q.page, q.limit, q.marketId, q.stopType])).toEqual([
      [1, 2, 1, undefined],
      [2, 2, 1, undefined],
      [3, 2, 1, undefined],
    ]);
  });

  it('without total, a short page ends the walk', async () => {
    const { rest } = fakeVenue([1, 2, 3].map(order), { withTotal: false });
    expect((await readAllTpslOrders(rest, { account: ACCOUNT }, { pageSize: 2 })).orders).toHaveLength(3);
  });

  it('walks again when the list changed under the walk, and gives up after the attempts', async () => {
    const list = [1, 2, 3].map(order);
    const { rest, asked } = fakeVenue(list, { before: (call) => call === 2 && list.push(order(9)) });
    const snapshot = await readAllTpslOrders(rest, { account: ACCOUNT }, { pageSize: 2 });
    expect(snapshot.orders.map((o) => o.order_id)).toEqual([
      'conditional-1',
      'conditional-2',
      'conditional-3',
      'conditional-9',
    ]);
    expect(asked.length).toBeGreaterThan(2);
    const restless = fakeVenue([1, 2, 3].map(order), { before: () => undefined });
    let n = 10;
    const moving: Pick<RestClient, 'tpslOrders'> = {
      tpslOrders: async (query) => ({ ...(await restless.rest.tpslOrders(query)), total: n++ }),
    };
    const error = await readAllTpslOrders(moving, { account: ACCOUNT }, { pageSize: 1, attempts: 2 }).catch((e) => e);
    expect(isPerpbotError(error) && error.code).toBe('VENUE_TPSL_ORDERS_UNSTABLE');
  });

  it('refuses more pages than allowed instead of cutting the list', async () => {
    const { rest } = fakeVenue([1, 2, 3, 4].map(order));
    const error = await readAllTpslOrders(rest, { account: ACCOUNT }, { pageSize: 1, maxPages: 2 }).catch((e) => e);
    expect(isPerpbotError(error) && error.code).toBe('VENUE_TPSL_ORDERS_TOO_MANY');
  });
});

describe('GET /v1/orders/tpsl as the client sends it', () => {
  async function urlOf(query: TpslOrdersQuery): Promise<URL> {
    let url = '';
    const rest = createRestClient({
      baseUrl: 'http://venue.invalid',
      timeoutMs: 5000,
      rateLimit: false,
      fetch: async (input) => {
        url = String(input);
        return new Response(JSON.stringify({ data: { orders: [], total: '0', page: 1, limit: 50 } }), {
          headers: { 'content-type': 'application/json' },
        });
      },
    });
    await rest.tpslOrders(query);
    return new URL(url);
  }

  it('asks for both stop types (STOP_TYPE_NONE) and every status, repeated, from page 1', async () => {
    const url = await urlOf({ account: ACCOUNT, limit: 50 });
    expect(url.pathname).toBe('/v1/orders/tpsl');
    expect(url.searchParams.get('stop_type')).toBe('STOP_TYPE_NONE');
    expect(url.searchParams.getAll('statuses')).toEqual([
      'TPSL_ORDER_STATUS_ACCEPTED',
      'TPSL_ORDER_STATUS_TRIGGERED',
      'TPSL_ORDER_STATUS_SUCCESS',
      'TPSL_ORDER_STATUS_CANCELLED',
    ]);
    expect(url.searchParams.get('page')).toBe('1');
    expect(url.searchParams.get('limit')).toBe('50');
  });

  it('narrows when asked, and refuses a bad query before sending', async () => {
    const url = await urlOf({
      account: ACCOUNT,
      marketId: 2,
      stopType: 'STOP_LOSS',
      statuses: ['TPSL_ORDER_STATUS_TRIGGERED'],
      startTime: 5n,
    });
    expect(url.searchParams.get('market_id')).toBe('2');
    expect(url.searchParams.get('stop_type')).toBe('STOP_LOSS');
    expect(url.searchParams.getAll('statuses')).toEqual(['TPSL_ORDER_STATUS_TRIGGERED']);
    expect(url.searchParams.get('start_time')).toBe('5');
    await expect(urlOf({ account: ACCOUNT, limit: 1001 })).rejects.toThrow(/limit/);
  });
});

import { describe, expect, it } from 'vitest';
import { isPerpbotError } from '../../../src/core/perpbotError.js';
import type { RestClient } from '../../../src/venue/rest/restClient.js';
import type { Position } from '../../../src/venue/schemas/restAccount.js';
import { positionRecord as position } from './venueRecords.js';
import type { OpenOrder } from '../../../src/venue/schemas/restOrders.js';
import { readVenueSnapshot, readVenueSnapshotWithNonces } from '../../../src/venue/state/venueSnapshot.js';

const ACCOUNT = '0x1111111111111111111111111111111111111111';

function open(marketId: number, n: number): OpenOrder {
  return {
    order_id: `0x${(marketId * 1000 + n).toString(16).padStart(48, '0')}`,
    resting_order_id: BigInt(n),
    wide_order_id: BigInt(n * 2),
    market_id: String(marketId),
    account: ACCOUNT,
    side: 0,
    size_steps: 1,
    price_ticks: 100 + n,
    order_type: 1,
    time_in_force: 0,
    post_only: false,
    reduce_only: false,
  };
}

/** A venue with books and positions per market, paging by start_index/limit; `before` runs before each page. */
function venue(
  books: Map<number, OpenOrder[]>,
  positions: Map<number, Position>,
  before?: (marketId: number, call: number) => void,
) {
  const pages: [string, string | undefined][] = [];
  const rest: Pick<RestClient, 'openOrders' | 'position' | 'crossMarginBalance' | 'nonceState'> = {
    openOrders: async (query) => {
      pages.push([String(query.market_id), query.start_index?.toString()]);
      before?.(Number(query.market_id), pages.length);
      const book = books.get(Number(query.market_id)) ?? [];
      const start = Number(query.start_index ?? 0);
      return { orders: book.slice(start, start + Number(query.limit ?? 1000)), total_orders: book.length };
    },
    position: async (query) => positions.get(Number(query.market_id)) ?? position(null, null),
    crossMarginBalance: async () => ({ balance: '-12.5' }),
    nonceState: async () => ({ nonce_anchor: 7n, current_bitmap_index: 3, bitmap: '5' }),
  };
  return { rest, pages };
}

describe('readVenueSnapshot', () => {
  it('reads every page of every market, each position normalised once, and the balance', async () => {
    const books = new Map([
      [1, [1, 2, 3, 4, 5].map((n) => open(1, n))],
      [2, [open(2, 1)]],
    ]);
    const { rest, pages } = venue(
      books,
      new Map([
        [1, position('-0.5', null)],
        [2, position('0.25', 'SELL')],
      ]),
    );
    const state = await readVenueSnapshot(rest, { account: ACCOUNT, markets: [1, 2, 3] }, { pageSize: 2 });
    expect(state.openOrders).toEqual([...books.get(1)!, ...books.get(2)!]);
    expect(pages.filter(([m]) => m === '1').map(([, start]) => start)).toEqual(['0', '2', '4']);
    expect([...state.positions.values()].map((p) => [p.marketId, p.flat, p.signedSize])).toEqual([
      [1, false, '-0.5'],
      [2, false, '-0.25'],
      [3, true, '0'],
    ]);
    expect(state.balance).toBe('-12.5');
  });

  it('walks a market again when its book changed mid-walk, and refuses a book that never holds still', async () => {
    const book = [1, 2, 3, 4].map((n) => open(1, n));
    const once = venue(new Map([[1, book]]), new Map(), (_m, call) => {
      if (call === 2) book.splice(0, 1);
    });
    const state = await readVenueSnapshot(once.rest, { account: ACCOUNT, markets: [1] }, { pageSize: 2 });
    expect(state.openOrders.map((o) => o.price_ticks)).toEqual([102, 103, 104]);

    const churn = [1, 2, 3, 4].map((n) => open(1, n));
    let next = 10;
    const always = venue(new Map([[1, churn]]), new Map(), (_m, call) => {
      if (call % 2 === 0) churn.push(open(1, next++));
    });
    const error = await readVenueSnapshot(always.rest, { account: ACCOUNT, markets: [1] }, { pageSize: 2 }).catch(
      (e: unknown) => e,
    );
    expect(isPerpbotError(error) && error.code).toBe('VENUE_OPEN_ORDERS_UNSTABLE');
  });

  it('with the nonce state when asked for it', async () => {
    const { rest } = venue(new Map(), new Map());
    const state = await readVenueSnapshotWithNonces(rest, { account: ACCOUNT, markets: [] });
    expect(state.nonceState).toEqual({ nonce_anchor: 7n, current_bitmap_index: 3, bitmap: '5' });
    expect(state.positions.size).toBe(0);
  });
});

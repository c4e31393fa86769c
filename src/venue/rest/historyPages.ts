import { PerpbotError } from '../../core/perpbotError.js';
import { HISTORY_MAX_LIMIT, type OrderHistoryRecord } from '../schemas/restHistory.js';
import type { FillRecord } from '../schemas/wsFramesPrivate.js';
import type { OrderHistoryQuery, TradeHistoryQuery } from './historyEndpoints.js';
import type { RestCallOptions, RestClient } from './restClient.js';

/**
 * Readers that walk every page of a history read. Pages are newest first, so a record that
 * arrives during the walk pushes older ones down a page: the walk sees some twice and yields each
 * id once. (With a `statuses` filter, an order that leaves the filtered set mid-walk pulls the
 * others up instead and one may be missed: read again, or filter by `orderIds`, to be exact.)
 */

export interface PageWalkOptions {
  /** Records asked per page; default the venue's maximum, 1000 (fewest requests). */
  readonly pageSize?: number;
  /** Bound on the walk: more pages than this is an error, not a silent cut. Default 100. */
  readonly maxPages?: number;
  /** Passed to every request (abort signal, timeout). */
  readonly callOptions?: RestCallOptions;
}

const DEFAULT_MAX_PAGES = 100;

interface PageAnswer<T> {
  readonly items: readonly T[];
  readonly hasNextPage: boolean;
}

/** Pages 1, 2, … until the venue says there is no next page (or sends an empty one). */
async function* walkPages<T>(
  endpoint: string,
  fetchPage: (page: number, limit: number) => Promise<PageAnswer<T>>,
  key: (item: T) => string,
  options: PageWalkOptions,
): AsyncGenerator<T, void, undefined> {
  const limit = options.pageSize ?? HISTORY_MAX_LIMIT;
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  const seen = new Set<string>();
  for (let page = 1; ; page++) {
    if (page > maxPages) {
      throw new PerpbotError(`${endpoint}: more than ${maxPages} pages of ${limit} records; stopped reading`, {
        code: 'VENUE_HISTORY_TOO_LONG',
        details: { endpoint, maxPages, pageSize: limit },
        hints: ['narrow the query (statuses, order ids) or raise maxPages / pageSize'],
      });
    }
    const answer = await fetchPage(page, limit);
    for (const item of answer.items) {
      const id = key(item);
      if (seen.has(id)) continue;
      seen.add(id);
      yield item;
    }
    if (!answer.hasNextPage || answer.items.length === 0) return;
  }
}

/** Every order of the account matching the query, newest first unless `sortedBy: 'created_at'`. */
export function orderHistoryRecords(
  rest: Pick<RestClient, 'orderHistory'>,
  query: Omit<OrderHistoryQuery, 'page' | 'limit'>,
  options: PageWalkOptions = {},
): AsyncGenerator<OrderHistoryRecord, void, undefined> {
  return walkPages(
    'GET /v1/orders',
    async (page, limit) => {
      const answer = await rest.orderHistory({ ...query, page, limit }, options.callOptions);
      return { items: answer.orders, hasNextPage: answer.has_next_page };
    },
    (order) => order.id.toLowerCase().replace(/^(0x)?/, '0x'),
    options,
  );
}

/** Every fill of the account, newest first; the fill id is the key that makes a fill countable once. */
export function tradeHistoryRecords(
  rest: Pick<RestClient, 'tradeHistory'>,
  query: Omit<TradeHistoryQuery, 'page' | 'limit'>,
  options: PageWalkOptions = {},
): AsyncGenerator<FillRecord, void, undefined> {
  return walkPages(
    'GET /v1/trade-history',
    async (page, limit) => {
      const answer = await rest.tradeHistory({ ...query, page, limit }, options.callOptions);
      return { items: answer.trades, hasNextPage: answer.has_next_page };
    },
    (fill) => fill.id,
    options,
  );
}

/** Collects a walk into an array (the walk's own bound applies). */
export async function collectAll<T>(records: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const record of records) out.push(record);
  return out;
}

import { PerpbotError } from '../../core/perpbotError.js';
import type { OpenOrder } from '../schemas/restOrders.js';
import type { RestCallOptions, RestClient } from './restClient.js';

export interface OpenOrdersSnapshotQuery {
  readonly account: string;
  readonly marketId: number | string;
  /** Only these order ids (sent comma-separated). */
  readonly orderIds?: readonly string[];
}

export interface OpenOrdersSnapshotOptions {
  /** `limit` of each page; default 1000. */
  readonly pageSize?: number;
  /** More pages than this is an error, not a silent cut; default 100. */
  readonly maxPages?: number;
  /** Walks restarted when the book changed under the walk, before giving up; default 3. */
  readonly attempts?: number;
  readonly callOptions?: RestCallOptions;
}

export interface OpenOrdersSnapshot {
  /** In the venue's order (oldest first on the simulator), each order once. */
  readonly orders: readonly OpenOrder[];
  /** `total_orders` as the venue reported it, or the count read when it reports none. */
  readonly totalOrders: number;
  /** Requests the successful walk took. */
  readonly pages: number;
}

const DEFAULT_PAGE_SIZE = 1000;
const DEFAULT_MAX_PAGES = 100;
const DEFAULT_ATTEMPTS = 3;

type WalkResult =
  | { readonly stable: true; readonly snapshot: OpenOrdersSnapshot }
  | { readonly stable: false; readonly reason: string };

/**
 * Every open order of an account in one market, read page by page with `start_index`/`limit`
 * (venue-facts) until `total_orders` is reached. An order filled or cancelled during the walk
 * shifts later ones up a page and one could be skipped, so the walk is accepted only when every
 * page reported the same `total_orders` and exactly that many distinct orders were read;
 * otherwise it starts again, a bounded number of times. Without `total_orders`, a page shorter
 * than the limit ends the walk.
 */
export async function readAllOpenOrders(
  rest: Pick<RestClient, 'openOrders'>,
  query: OpenOrdersSnapshotQuery,
  options: OpenOrdersSnapshotOptions = {},
): Promise<OpenOrdersSnapshot> {
  const attempts = options.attempts ?? DEFAULT_ATTEMPTS;
  let lastReason = '';
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const result = await walkOnce(rest, query, options);
    if (result.stable) return result.snapshot;
    lastReason = result.reason;
  }
  throw new PerpbotError(
    `GET /v1/orders/open: no consistent snapshot of market ${query.marketId} after ${attempts} walks: ${lastReason}`,
    {
      code: 'VENUE_OPEN_ORDERS_UNSTABLE',
      details: { account: query.account, marketId: String(query.marketId), attempts, reason: lastReason },
      hints: ['the orders changed during every walk; retry when quieter, or raise pageSize so one page holds them all'],
    },
  );
}

async function walkOnce(
  rest: Pick<RestClient, 'openOrders'>,
  query: OpenOrdersSnapshotQuery,
  options: OpenOrdersSnapshotOptions,
): Promise<WalkResult> {
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  const byId = new Map<string, OpenOrder>();
  let firstTotal: number | undefined;
  let start = 0;
  for (let pages = 1; ; pages++) {
    if (pages > maxPages) {
      throw new PerpbotError(
        `GET /v1/orders/open: more than ${maxPages} pages of ${pageSize} open orders in market ${query.marketId}`,
        {
          code: 'VENUE_OPEN_ORDERS_TOO_MANY',
          details: { account: query.account, marketId: String(query.marketId), maxPages, pageSize },
          hints: ['raise maxPages or pageSize'],
        },
      );
    }
    const page = await rest.openOrders(
      {
        account: query.account,
        market_id: String(query.marketId),
        start_index: String(start),
        limit: String(pageSize),
        ...(query.orderIds === undefined ? {} : { order_ids: query.orderIds.join(',') }),
      },
      options.callOptions,
    );
    const total = page.total_orders;
    if (pages === 1) firstTotal = total;
    else if (total !== firstTotal)
      return { stable: false, reason: `total_orders went from ${String(firstTotal)} to ${String(total)}` };
    for (const order of page.orders) byId.set(order.order_id.toLowerCase().replace(/^(0x)?/, '0x'), order);
    start += page.orders.length;
    const done = page.orders.length === 0 || (total !== undefined ? start >= total : page.orders.length < pageSize);
    if (!done) continue;
    if (total !== undefined && byId.size !== total) {
      return { stable: false, reason: `read ${byId.size} distinct orders, total_orders says ${total}` };
    }
    return { stable: true, snapshot: { orders: [...byId.values()], totalOrders: total ?? byId.size, pages } };
  }
}

import { PerpbotError } from '../../core/perpbotError.js';
import type { TpslOrderRecord } from '../schemas/restTpsl.js';
import type { RestCallOptions, RestClient } from './restClient.js';
import type { TpslOrdersQuery } from './tpslEndpoints.js';

export interface TpslOrdersSnapshotOptions {
  /** `limit` of each page; default 1000 (the venue's largest). */
  readonly pageSize?: number;
  /** More pages than this is an error, not a silent cut; default 50. */
  readonly maxPages?: number;
  /** Walks restarted when the list changed under the walk, before giving up; default 3. */
  readonly attempts?: number;
  readonly callOptions?: RestCallOptions;
}

export interface TpslOrdersSnapshot {
  /** In the venue's order, each order once. */
  readonly orders: readonly TpslOrderRecord[];
  /** `total` as the venue reported it, or the count read when it reports none. */
  readonly total: number;
  readonly pages: number;
}

const DEFAULT_PAGE_SIZE = 1000;
const DEFAULT_MAX_PAGES = 50;
const DEFAULT_ATTEMPTS = 3;

type Walk =
  { readonly stable: true; readonly snapshot: TpslOrdersSnapshot } | { readonly stable: false; reason: string };

/**
 * Every TP/SL order the query selects (by default both stop types and every status: see
 * `getTpslOrders`), page by page from 1 until `total` is read. An order placed or cancelled during
 * the walk moves the others between pages, so a walk counts only when every page reported the same
 * `total` and that many distinct orders were read; otherwise it starts again, a bounded number of
 * times. Without `total`, a page shorter than the limit ends the walk.
 */
export async function readAllTpslOrders(
  rest: Pick<RestClient, 'tpslOrders'>,
  query: Omit<TpslOrdersQuery, 'page' | 'limit'>,
  options: TpslOrdersSnapshotOptions = {},
): Promise<TpslOrdersSnapshot> {
  const attempts = options.attempts ?? DEFAULT_ATTEMPTS;
  let reason = '';
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const walk = await walkOnce(rest, query, options);
    if (walk.stable) return walk.snapshot;
    reason = walk.reason;
  }
  throw new PerpbotError(`GET /v1/orders/tpsl: no consistent list after ${attempts} walks: ${reason}`, {
    code: 'VENUE_TPSL_ORDERS_UNSTABLE',
    details: { account: query.account, attempts, reason },
    hints: ['the TP/SL orders changed during every walk; retry when quieter, or filter by market or status'],
  });
}

async function walkOnce(
  rest: Pick<RestClient, 'tpslOrders'>,
  query: Omit<TpslOrdersQuery, 'page' | 'limit'>,
  options: TpslOrdersSnapshotOptions,
): Promise<Walk> {
  const limit = options.pageSize ?? DEFAULT_PAGE_SIZE;
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  const byId = new Map<string, TpslOrderRecord>();
  let firstTotal: number | undefined;
  let read = 0;
  for (let page = 1; ; page++) {
    if (page > maxPages) {
      throw new PerpbotError(`GET /v1/orders/tpsl: more than ${maxPages} pages of ${limit} TP/SL orders`, {
        code: 'VENUE_TPSL_ORDERS_TOO_MANY',
        details: { account: query.account, maxPages, pageSize: limit },
        hints: ['raise maxPages or pageSize, or filter by market or status'],
      });
    }
    const answer = await rest.tpslOrders({ ...query, page, limit }, options.callOptions);
    if (page === 1) firstTotal = answer.total;
    else if (answer.total !== firstTotal)
      return { stable: false, reason: `total went from ${String(firstTotal)} to ${String(answer.total)}` };
    for (const order of answer.orders) byId.set(order.order_id, order);
    read += answer.orders.length;
    const total = answer.total;
    const done = answer.orders.length === 0 || (total !== undefined ? read >= total : answer.orders.length < limit);
    if (!done) continue;
    if (total !== undefined && byId.size !== total)
      return { stable: false, reason: `read ${byId.size} distinct orders, total says ${total}` };
    return { stable: true, snapshot: { orders: [...byId.values()], total: total ?? byId.size, pages: page } };
  }
}

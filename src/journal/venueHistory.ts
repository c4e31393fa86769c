import type { RestClient } from '../venue/rest/restClient.js';
import { collectAll, orderHistoryRecords, tradeHistoryRecords } from '../venue/rest/historyPages.js';
import { isTransientFailure, requestFailureOf } from '../venue/rest/requestFaults.js';
import { HISTORY_MAX_ORDER_IDS, type OrderHistoryRecord } from '../venue/schemas/restHistory.js';
import type { FillRecord } from '../venue/schemas/wsFramesPrivate.js';

/**
 * What a reconciliation reads of the venue's history (venue-facts "History and other reads"):
 * the account's fills since the window the journal may have missed, the orders it must know the
 * fate of (by id), and in-flight placements whose answer was lost (by client_order_id). Both walks
 * are newest first and stop at the first record older than their bound, so a reconciliation reads
 * about as many pages as there are records in its window, not the account's whole history.
 */
export type HistoryReads = Partial<Pick<RestClient, 'orderHistory' | 'tradeHistory'>>;

/**
 * Taken off every bound: the venue's clock against ours, a fill mined just before a connection's
 * loss was noticed (a silent socket), and frames still on the wire when a process stopped.
 */
export const HISTORY_MARGIN_MS = 60_000;

export interface HistoryNeeds {
  readonly account: string;
  /** Read every fill of the account from this time (ms, before the margin); undefined: read none. */
  readonly fillsSinceMs?: number;
  /** Orders whose record is wanted, by id. */
  readonly orderIds: readonly string[];
  /** Placements to find by client_order_id among the orders created since `sinceMs` (ms, before the margin). */
  readonly clientOrderIds?: { readonly ids: ReadonlySet<string>; readonly sinceMs: number };
  /** Records per page; default the venue's maximum (fewest requests). */
  readonly pageSize?: number;
}

export interface AvailableHistory {
  readonly available: true;
  /** Fills of the window, oldest first (the order they are journaled in). */
  readonly fills: readonly FillRecord[];
  /** The bound the fills were read from (ms, margin included), when they were read. */
  readonly fillsFromMs?: number;
  order(orderId: string): OrderHistoryRecord | undefined;
  byClientOrderId(clientOrderId: string): OrderHistoryRecord | undefined;
}

export interface UnavailableHistory {
  readonly available: false;
  /** Why: the read that failed and how, for the report ("inferred: history unavailable"). */
  readonly reason: string;
}

export type VenueHistory = AvailableHistory | UnavailableHistory;

/** Order ids as the journal keys them: lower case, with 0x. */
export function historyOrderKey(orderId: string): string {
  return orderId.toLowerCase().replace(/^(0x)?/, '0x');
}

/**
 * Reads what `needs` asks. A transient failure (timeout, 5xx, 429: worth another try) or an abort
 * is thrown, so the caller's retries run the whole reconciliation again; any other failure (the
 * venue has no such endpoint: 404; an answer of another shape; a client without history reads)
 * makes the history unavailable, and the caller falls back to inference.
 */
export async function readVenueHistory(rest: HistoryReads, needs: HistoryNeeds): Promise<VenueHistory> {
  const wantsFills = needs.fillsSinceMs !== undefined;
  const wantsOrders =
    needs.orderIds.length > 0 || (needs.clientOrderIds !== undefined && needs.clientOrderIds.ids.size > 0);
  const empty: AvailableHistory = {
    available: true,
    fills: [],
    order: () => undefined,
    byClientOrderId: () => undefined,
  };
  if (!wantsFills && !wantsOrders) return empty;
  const { orderHistory, tradeHistory } = rest;
  if (orderHistory === undefined || tradeHistory === undefined)
    return { available: false, reason: 'the REST client given has no history reads' };
  const reads = { orderHistory, tradeHistory };
  const walk = { ...(needs.pageSize === undefined ? {} : { pageSize: needs.pageSize }) };
  try {
    const fillsFromMs =
      needs.fillsSinceMs === undefined ? undefined : Math.max(0, needs.fillsSinceMs - HISTORY_MARGIN_MS);
    // The three walks are independent: side by side, so a reconnect waits for the slowest only.
    const [fills, byId, byCoid] = await Promise.all([
      fillsFromMs === undefined ? Promise.resolve([]) : fillsSince(reads, needs.account, fillsFromMs, walk),
      ordersById(reads, needs.account, needs.orderIds),
      needs.clientOrderIds === undefined || needs.clientOrderIds.ids.size === 0
        ? Promise.resolve(new Map<string, OrderHistoryRecord>())
        : ordersByClientOrderId(reads, needs.account, needs.clientOrderIds, walk),
    ]);
    return {
      available: true,
      fills,
      ...(fillsFromMs === undefined ? {} : { fillsFromMs }),
      order: (orderId) => byId.get(historyOrderKey(orderId)),
      byClientOrderId: (coid) => byCoid.get(coid),
    };
  } catch (error) {
    if (isTransientFailure(error) || requestFailureOf(error) === 'aborted') throw error;
    return { available: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

function nanos(ms: number): bigint {
  return BigInt(Math.floor(ms)) * 1_000_000n;
}

type Reads = Required<HistoryReads>;
type Walk = { readonly pageSize?: number };

/** The account's fills from `fromMs` on, oldest first. */
async function fillsSince(reads: Reads, account: string, fromMs: number, walk: Walk): Promise<FillRecord[]> {
  const bound = nanos(fromMs);
  const fills: FillRecord[] = [];
  for await (const fill of tradeHistoryRecords(reads, { account }, walk)) {
    // Newest first: everything after the first older fill is older still.
    if (fill.time < bound) break;
    fills.push(fill);
  }
  return fills.reverse();
}

/** The history records of these orders, by order id. */
async function ordersById(
  reads: Reads,
  account: string,
  orderIds: readonly string[],
): Promise<Map<string, OrderHistoryRecord>> {
  const byId = new Map<string, OrderHistoryRecord>();
  const ids = [...new Set(orderIds.map(historyOrderKey))];
  for (let i = 0; i < ids.length; i += HISTORY_MAX_ORDER_IDS) {
    const chunk = ids.slice(i, i + HISTORY_MAX_ORDER_IDS);
    // One page holds every match of a chunk.
    for (const order of await collectAll(
      orderHistoryRecords(reads, { account, orderIds: chunk }, { pageSize: HISTORY_MAX_ORDER_IDS }),
    )) {
      byId.set(historyOrderKey(order.id), order);
    }
  }
  return byId;
}

/** The latest order carrying each wanted client_order_id, created since `wanted.sinceMs` (less the margin). */
async function ordersByClientOrderId(
  reads: Reads,
  account: string,
  wanted: { readonly ids: ReadonlySet<string>; readonly sinceMs: number },
  walk: Walk,
): Promise<Map<string, OrderHistoryRecord>> {
  const byCoid = new Map<string, OrderHistoryRecord>();
  const bound = nanos(Math.max(0, wanted.sinceMs - HISTORY_MARGIN_MS));
  for await (const order of orderHistoryRecords(reads, { account }, walk)) {
    if (order.created_at < bound) break;
    const coid = order.client_order_id?.toString();
    // Newest first: a client_order_id used twice is the latest order's.
    if (coid !== undefined && wanted.ids.has(coid) && !byCoid.has(coid)) byCoid.set(coid, order);
    if (byCoid.size === wanted.ids.size) break;
  }
  return byCoid;
}

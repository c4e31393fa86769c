import { defer, filter, firstValueFrom, map, race } from 'rxjs';
import type { Address } from '../../core/address.js';
import type { Clock } from '../../core/clock.js';
import { compareDecimals } from '../../core/decimal.js';
import type { RestClient } from '../../venue/rest/restClient.js';
import { orderHistoryRecords } from '../../venue/rest/historyPages.js';
import type { OrderHistoryRecord } from '../../venue/schemas/restHistory.js';
import { readAllOpenOrders } from '../../venue/rest/readAllOpenOrders.js';
import type { OpenOrder } from '../../venue/schemas/restOrders.js';
import { readVenuePosition } from '../../venue/state/venuePosition.js';
import type { OrderTracker } from '../tracking/orderTracker.js';
import type { ResolvedAction } from '../checks/wireAction.js';

/**
 * What the venue's state shows about an action whose first send may have executed unseen (a
 * resend answered NonceUsed or InvalidNonceAnchor, or a deadline that passed after a send with no
 * definite answer): its effect is in place, it is not, or the state cannot tell. Only reads here;
 * what to do with the answer is the retry policy's (`classifyLanding`, landingPolicy.ts).
 *
 * - placement: the order by its client_order_id, in the tracker (fed by the orders and fills
 *   channels: an IOC or FOK order that filled at once is never open), among the open orders, or
 *   in the venue's order history (filled or cancelled at once: history shows it although no feed
 *   did); then, for a bounded time, on those feeds.
 * - cancel: whether the order is still open; if not, how it left the book (the orders channel,
 *   else the order by id from the venue's history): cancelled is the cancel in effect, filled is
 *   nothing left to cancel (`target_finished`, the tracker left to the feeds), and so is a gone
 *   order whose history cannot be read. cancel-all: whether the market has no open order.
 * - leverage, margin mode: the position's value against the requested one (GET
 *   /v1/account/position); a flat position shows neither (venue-facts), so it cannot tell.
 * - isolated margin: the request is a change, not a value; a read cannot tell.
 */
export type LandingEvidence =
  | { readonly kind: 'in_effect'; readonly detail: string; readonly orderId?: string }
  /** A cancel whose order left the book some other way (it filled), or whose fate no read shows: nothing to cancel. */
  | { readonly kind: 'target_finished'; readonly detail: string }
  | { readonly kind: 'not_in_effect'; readonly detail: string }
  | { readonly kind: 'cannot_tell'; readonly detail: string; readonly cause?: unknown };

export interface LandingReader {
  /** Without `orderHistory`, a placement is looked for in the tracker, the open orders and the feeds only. */
  readonly rest: Pick<RestClient, 'openOrders' | 'position'> & Partial<Pick<RestClient, 'orderHistory' | 'orderById'>>;
  readonly account: Address;
  readonly tracker: OrderTracker;
  readonly clock: Clock;
  /** How long a placement that neither the tracker nor the open orders show is waited for on the feeds. */
  readonly feedWaitMs: number;
}

/**
 * How long the engine waits for the orders or fills channel to show a placement that the open
 * orders do not list (frames may trail the action's answer by a block or two).
 */
export const FEED_WAIT_MS = 2000;

/** Pages of open orders read before giving up (a venue that ignores start_index repeats page one). */
const MAX_PAGES = 20;

/**
 * How far back the order history is searched for a placement: its answer was lost moments ago
 * (within its permit's deadline), so orders created earlier than this are not it. Margin included
 * for the venue's clock against ours.
 */
export const LANDING_HISTORY_WINDOW_MS = 5 * 60_000;
const HISTORY_PAGE_SIZE = 100;
const HISTORY_MAX_PAGES = 10;

export async function readLandingEvidence(
  reader: LandingReader,
  intentId: string,
  action: ResolvedAction,
  signal?: AbortSignal,
): Promise<LandingEvidence> {
  try {
    switch (action.action) {
      case 'placeOrder':
        return await placementEvidence(
          reader,
          intentId,
          action.order.market_id,
          action.order.client_order_id?.toString(),
          signal,
        );
      case 'cancelOrder':
        return await cancelEvidence(reader, action.market_id, action.order_id);
      case 'cancelAllOrders':
        return await cancelAllEvidence(reader, action.market_id);
      case 'updateLeverage':
      case 'updateMarginMode':
        return await positionEvidence(reader, action);
      case 'updateIsolatedMargin':
        return {
          kind: 'cannot_tell',
          detail:
            'an isolated-margin change is an amount, not a value: no read of isolated_usdc_balance shows whether it was applied (fills and fees move it too)',
        };
    }
  } catch (error) {
    return {
      kind: 'cannot_tell',
      detail: `the venue read to check it failed (${error instanceof Error ? error.message : String(error)})`,
      cause: error,
    };
  }
}

async function placementEvidence(
  reader: LandingReader,
  intentId: string,
  marketId: number,
  coid: string | undefined,
  signal?: AbortSignal,
): Promise<LandingEvidence> {
  const linked = (): string | undefined => reader.tracker.order(intentId)?.orderId;
  const fromFeed = (orderId: string): LandingEvidence => ({
    kind: 'in_effect',
    orderId,
    detail: `the orders or fills channel shows order ${orderId} with its client_order_id`,
  });
  const known = linked();
  if (known !== undefined) return fromFeed(known);
  if (coid === undefined)
    return { kind: 'cannot_tell', detail: 'the order carries no client_order_id to look it up by' };
  const open = await findOpenOrder(reader, marketId, (o) => o.client_order_id?.toString() === coid);
  if (open !== undefined)
    return {
      kind: 'in_effect',
      orderId: open.order_id,
      detail: `order ${open.order_id} with client_order_id ${coid} is open on the venue`,
    };
  const past = await findInHistory(reader, coid);
  if (past !== undefined) {
    return {
      kind: 'in_effect',
      orderId: past.id,
      detail: `order ${past.id} with client_order_id ${coid} is in the venue's order history (${past.status.replace('ORDER_STATUS_', '')}, filled ${past.filled_size} of ${past.size})`,
    };
  }
  // A market, IOC or FOK order that filled (or was cancelled) at once is never open: only the
  // orders and fills channels show it, and their frames may trail the action's answer.
  const late = linked() ?? (await waitForLink(reader, intentId, signal));
  if (late !== undefined) return fromFeed(late);
  return {
    kind: 'cannot_tell',
    detail: `client_order_id ${coid}: no open order has it, and the orders and fills channels showed none within ${reader.feedWaitMs} ms`,
  };
}

async function cancelEvidence(reader: LandingReader, marketId: number, orderId: string): Promise<LandingEvidence> {
  const tracked = reader.tracker.orderByOrderId(orderId);
  if (tracked?.state === 'cancelled')
    return { kind: 'in_effect', detail: `the orders channel shows order ${orderId} cancelled` };
  if (tracked?.state === 'filled')
    return { kind: 'target_finished', detail: `the orders channel shows order ${orderId} filled` };
  const wanted = normalizeOrderId(orderId);
  const open = await findOpenOrder(reader, marketId, (o) => normalizeOrderId(o.order_id) === wanted);
  if (open !== undefined) return { kind: 'not_in_effect', detail: `order ${orderId} is still open on the venue` };
  return goneOrderEvidence(reader, orderId);
}

/**
 * An order no longer open: how it left the book, from its history record. Only "cancelled" shows
 * the cancel in effect (ours, or another's: the order is cancelled either way); a fill, or a
 * history that cannot be read, leaves the order's fate to the feeds.
 */
async function goneOrderEvidence(reader: LandingReader, orderId: string): Promise<LandingEvidence> {
  const gone = `order ${orderId} is no longer open on the venue`;
  if (reader.rest.orderById === undefined)
    return { kind: 'target_finished', detail: `${gone}; without an order history to read, the feeds say how it left` };
  let status: string;
  try {
    status = (await reader.rest.orderById(orderId)).status;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { kind: 'target_finished', detail: `${gone}, and reading its history failed (${why})` };
  }
  if (status === 'ORDER_STATUS_CANCELLED')
    return { kind: 'in_effect', detail: `${gone}: its history shows it cancelled` };
  return { kind: 'target_finished', detail: `${gone}: its history shows ${status}` };
}

async function cancelAllEvidence(reader: LandingReader, marketId: number): Promise<LandingEvidence> {
  const open = await findOpenOrder(reader, marketId, () => true);
  if (open === undefined) return { kind: 'in_effect', detail: `market ${marketId} has no open order` };
  // Orders placed after the cancel-all would be open too: their presence does not show it failed.
  return {
    kind: 'cannot_tell',
    detail: `order ${open.order_id} is open in market ${marketId}, and it may have been placed after the cancel-all`,
  };
}

async function positionEvidence(
  reader: LandingReader,
  action: Extract<ResolvedAction, { action: 'updateLeverage' | 'updateMarginMode' }>,
): Promise<LandingEvidence> {
  const position = await readVenuePosition(reader.rest, reader.account, action.market_id);
  const what = action.action === 'updateLeverage' ? 'leverage' : 'margin mode';
  if (position.flat)
    return {
      kind: 'cannot_tell',
      detail: `the position in market ${action.market_id} is flat, and a flat position shows no ${what} (venue-facts)`,
    };
  const requested = action.action === 'updateLeverage' ? String(action.leverage) : String(action.margin_mode);
  const actual =
    action.action === 'updateLeverage'
      ? position.leverage
      : position.marginMode === undefined
        ? undefined
        : String(position.marginMode);
  if (actual === undefined)
    return { kind: 'cannot_tell', detail: `the position in market ${action.market_id} shows no ${what}` };
  const same = action.action === 'updateLeverage' ? compareDecimals(actual, requested) === 0 : actual === requested;
  return same
    ? { kind: 'in_effect', detail: `the position's ${what} is ${actual}, as requested` }
    : { kind: 'not_in_effect', detail: `the position's ${what} is ${actual}, not the requested ${requested}` };
}

/**
 * The first open order of a market that matches, from a whole snapshot of its open orders (the
 * venue layer's paged reader): none found means none open. A snapshot that cannot be had (more
 * than MAX_PAGES pages, or a book that kept changing) throws, and the evidence cannot tell.
 */
async function findOpenOrder(
  reader: LandingReader,
  marketId: number,
  match: (o: OpenOrder) => boolean,
): Promise<OpenOrder | undefined> {
  const open = await readAllOpenOrders(reader.rest, { account: reader.account, marketId }, { maxPages: MAX_PAGES });
  return open.orders.find(match);
}

/**
 * The newest order of the account with this client_order_id created within the search window, or
 * undefined (not there, or the history cannot be read: the feeds are the next evidence).
 */
async function findInHistory(reader: LandingReader, coid: string): Promise<OrderHistoryRecord | undefined> {
  const { orderHistory } = reader.rest;
  if (orderHistory === undefined) return undefined;
  const bound = BigInt(Math.max(0, reader.clock.now() - LANDING_HISTORY_WINDOW_MS)) * 1_000_000n;
  try {
    for await (const order of orderHistoryRecords(
      { orderHistory },
      { account: reader.account },
      { pageSize: HISTORY_PAGE_SIZE, maxPages: HISTORY_MAX_PAGES },
    )) {
      // Newest first: past the window, every later record is older still.
      if (order.created_at < bound) return undefined;
      if (order.client_order_id?.toString() === coid && order.status !== 'ORDER_STATUS_NONE') return order;
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/** The order id the tracker links to the intent once a feed shows it, or undefined after `feedWaitMs`. */
async function waitForLink(reader: LandingReader, intentId: string, signal?: AbortSignal): Promise<string | undefined> {
  if (reader.feedWaitMs <= 0) return undefined;
  const stop = new AbortController();
  const onAbort = (): void => stop.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const seen = reader.tracker.orders$.pipe(
      filter((o) => o.intentId === intentId && o.orderId !== undefined),
      map((o) => o.orderId),
    );
    // Deferred: the timer starts once the feed is watched, so nothing in between is missed.
    const timeout = defer(() => reader.clock.sleep(reader.feedWaitMs, stop.signal).catch(() => undefined)).pipe(
      map(() => undefined),
    );
    return await firstValueFrom(race(seen, timeout), { defaultValue: undefined });
  } finally {
    signal?.removeEventListener('abort', onAbort);
    stop.abort();
  }
}

function normalizeOrderId(orderId: string): string {
  return orderId.replace(/^0x/i, '').toLowerCase();
}

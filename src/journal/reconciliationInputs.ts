import { compareBalance } from './compareBalance.js';
import { isPlacement, placementClientOrderId } from './inFlightPlacement.js';
import type { InFlightIntent, JournalOrder } from './journalRows.js';
import { BASE_POSITION_SOURCE } from './positionBase.js';
import type { ReconcileOptions } from './reconcileOptions.js';
import type { BalanceComparison } from './reconciliationReport.js';
import { readVenueHistory, type HistoryNeeds, type VenueHistory } from './venueHistory.js';
import { parseNonceState, type NonceState } from '../engine/nonces/noncePair.js';
import type { OpenOrder } from '../venue/schemas/restOrders.js';
import { coversMarkets, readVenueSnapshotWithNonces, type VenueSnapshot } from '../venue/state/venueSnapshot.js';

/** Everything one reconciliation compares, read before it changes anything. */
export interface ReconciliationInputs {
  /** The markets configured, and those of the journal's in-flight intents and live orders. */
  readonly markets: readonly number[];
  /** Intents of earlier runs the journal holds without a terminal outcome. */
  readonly inFlight: readonly InFlightIntent[];
  /**
   * Orders whose fate may have changed unobserved: those the journal holds live, then those the
   * engine marked cancelled in the window (a snapshot stopped listing them: filled or cancelled,
   * it could not tell), less those our own cancels closed.
   */
  readonly orders: readonly JournalOrder[];
  /** What the venue holds now: given (the reconnect's one read, when it covers the markets) or read here. */
  readonly venue: VenueSnapshot;
  readonly nonce: NonceState;
  /** The venue's open orders by order id (lower case). */
  readonly openById: ReadonlyMap<string, OpenOrder>;
  /** The venue's open orders by client_order_id (decimal). */
  readonly openByCoid: ReadonlyMap<string, OpenOrder>;
  readonly balance: BalanceComparison;
  readonly history: VenueHistory;
  /** The start of the window whose fills were read from history; undefined: none were. */
  readonly fillsSinceMs?: number;
}

export async function readReconciliationInputs(o: ReconcileOptions): Promise<ReconciliationInputs> {
  const { journal, account } = o;
  const inFlight = journal.inFlightIntents(account).filter((f) => f.runId !== o.currentRunId);
  const live = journal.liveOrders(account);
  const markets = [...new Set([...o.markets, ...inFlight.map((f) => f.marketId), ...live.map((l) => l.marketId)])];
  const venue = await venueSnapshotFor(o, markets);
  const openById = new Map(venue.openOrders.map((v) => [v.order_id.toLowerCase(), v]));
  const openByCoid = new Map(
    venue.openOrders.flatMap((v) =>
      v.client_order_id === undefined ? [] : [[v.client_order_id.toString(), v] as const],
    ),
  );
  const balance = compareBalance(journal, account, venue.balance);
  const orders = [...live, ...closedInWindow(o, markets)];
  const fillsSinceMs = o.closedSinceMs ?? journal.fillsMissingSince(account, o.currentRunId);
  const history = await readVenueHistory(
    o.rest,
    historyNeeds(o, { openById, openByCoid }, inFlight, orders, fillsSinceMs),
  );
  return {
    markets,
    inFlight,
    orders,
    venue,
    nonce: parseNonceState(venue.nonceState),
    openById,
    openByCoid,
    balance,
    history,
    ...(fillsSinceMs === undefined ? {} : { fillsSinceMs }),
  };
}

/**
 * The snapshot the reconciliation compares with: the one its caller read (after a reconnect, the
 * read every reconciler shares) when it covers every market needed with the nonce state, else one
 * read here.
 */
async function venueSnapshotFor(
  o: ReconcileOptions,
  markets: readonly number[],
): Promise<VenueSnapshot & Required<Pick<VenueSnapshot, 'nonceState'>>> {
  const given = o.snapshot;
  if (given?.nonceState !== undefined && coversMarkets(given, markets))
    return { ...given, nonceState: given.nonceState };
  return readVenueSnapshotWithNonces(
    o.rest,
    { account: o.account, markets },
    o.pageSize === undefined ? {} : { pageSize: o.pageSize },
  );
}

/** Orders the engine marked cancelled since the window's start (default: the position base), less our own cancels. */
function closedInWindow(o: ReconcileOptions, markets: readonly number[]): JournalOrder[] {
  const { journal, account } = o;
  const since =
    o.closedSinceMs ??
    Math.min(
      ...markets.map((m) => journal.latestPosition(account, m, BASE_POSITION_SOURCE)?.atMs ?? Number.POSITIVE_INFINITY),
    );
  const cancelledByUs = journal.acceptedCancelTargets(account);
  if (!Number.isFinite(since)) return [];
  return journal
    .ordersClosedSince(account, 'cancelled', 'engine', since)
    .filter((c) => !cancelledByUs.has(c.intentId) && !cancelledByUs.has(c.orderId?.toLowerCase() ?? ''));
}

/**
 * What only the venue's history tells: the fills of the window the journal may have missed, the
 * fate of every order that left the book unobserved, and placements whose answer was lost.
 */
function historyNeeds(
  o: ReconcileOptions,
  venue: Pick<ReconciliationInputs, 'openById' | 'openByCoid'>,
  inFlight: readonly InFlightIntent[],
  orders: readonly JournalOrder[],
  fillsSinceMs: number | undefined,
): HistoryNeeds {
  const placements = inFlight.filter(
    (f) => isPlacement(f) && f.order !== undefined && !venue.openByCoid.has(placementClientOrderId(f) ?? ''),
  );
  const gone = orders.flatMap((c) =>
    c.orderId === undefined || venue.openById.has(c.orderId.toLowerCase()) ? [] : [c.orderId],
  );
  const coids = new Set(placements.flatMap((f) => placementClientOrderId(f) ?? []));
  return {
    account: o.account,
    ...(fillsSinceMs === undefined ? {} : { fillsSinceMs }),
    orderIds: [...gone, ...placements.flatMap((f) => f.order?.orderId ?? [])],
    ...(coids.size === 0
      ? {}
      : { clientOrderIds: { ids: coids, sinceMs: Math.min(...placements.map((f) => f.receivedMs)) } }),
    ...(o.pageSize === undefined ? {} : { pageSize: o.pageSize }),
  };
}

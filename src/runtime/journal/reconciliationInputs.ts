import { compareBalance } from './compareBalance.js';
import { isPlacement, placementClientOrderId } from './inFlightPlacement.js';
import type { InFlightIntent, JournalOrder } from './journalRows.js';
import { BASE_POSITION_SOURCE } from './positionBase.js';
import type { ReconcileOptions } from './reconcileOptions.js';
import type { BalanceComparison } from './reconciliationReport.js';
import { readVenueHistory, type HistoryNeeds, type VenueHistory } from './venueHistory.js';
import { readVenueSnapshot, type VenueSnapshot } from './venueSnapshot.js';

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
  readonly venue: VenueSnapshot;
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
  const venue = await readVenueSnapshot(o, markets);
  const balance = compareBalance(journal, account, venue.balance);
  const orders = [...live, ...closedInWindow(o, markets)];
  const fillsSinceMs = o.closedSinceMs ?? journal.fillsMissingSince(account, o.currentRunId);
  const history = await readVenueHistory(o.rest, historyNeeds(o, venue, inFlight, orders, fillsSinceMs));
  return {
    markets,
    inFlight,
    orders,
    venue,
    balance,
    history,
    ...(fillsSinceMs === undefined ? {} : { fillsSinceMs }),
  };
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
  venue: VenueSnapshot,
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

import { Subscription, type Observable } from 'rxjs';
import type { Clock } from '../../core/clock.js';
import { addDecimals, compareDecimals } from '../../core/decimal.js';
import type { TrackedFill, TrackedOrder, TrackedPosition } from '../../engine/tracking/orderTracker.js';
import type { Journal } from './journal.js';

export interface TrackerEvents {
  readonly orders$: Observable<TrackedOrder>;
  readonly fills$: Observable<TrackedFill>;
  /** Emits whenever positions may have changed (the positions channel, a reconciliation). */
  readonly positionsChanged$: Observable<unknown>;
  allPositions(): readonly TrackedPosition[];
}

/**
 * Journals what the tracker learns: every order state change (with history) and a position
 * snapshot whenever a market's position changes. Fills are journaled by the tracker's fill ledger
 * (`journalFillLedger`) before the tracker counts them; here a fill only corrects an order a
 * snapshot had closed. The subjects are synchronous, so a change is on disk before the next
 * subscriber (a strategy) hears of it.
 */
export function recordTrackerEvents(
  journal: Journal,
  account: string,
  events: TrackerEvents,
  clock: Clock,
): Subscription {
  const subscriptions = new Subscription();
  subscriptions.add(events.orders$.subscribe((order) => journal.recordOrder(account, order, 'engine', clock.now())));
  subscriptions.add(events.fills$.subscribe((fill) => correctClosedOrder(journal, account, fill.orderId, clock.now())));
  const last = new Map<number, string>();
  subscriptions.add(
    events.positionsChanged$.subscribe(() => {
      const now = new Map(events.allPositions().map((p) => [p.marketId, p]));
      for (const marketId of new Set([...last.keys(), ...now.keys()])) {
        const p = now.get(marketId);
        const key = p === undefined ? '0' : `${p.side}:${p.size}:${p.marginMode ?? ''}`;
        if (last.get(marketId) === key) continue;
        last.set(marketId, key);
        journal.recordPosition(
          account,
          p === undefined
            ? { marketId, side: 'buy', size: '0' }
            : {
                marketId,
                side: p.side,
                size: p.size,
                ...(p.avgEntryPrice === undefined ? {} : { avgEntryPrice: p.avgEntryPrice }),
                ...(p.marginMode === undefined ? {} : { marginMode: p.marginMode }),
              },
          'venue',
          clock.now(),
        );
      }
    }),
  );
  return subscriptions;
}

/**
 * The tracker never moves an order out of a terminal state, so a fill that arrives after a
 * snapshot stopped listing the order (marked cancelled: filled or cancelled could not be told)
 * would leave the journal saying cancelled with nothing filled. The fills say otherwise.
 */
function correctClosedOrder(journal: Journal, account: string, orderId: string, atMs: number): void {
  const order = journal.orderByOrderId(orderId);
  if (order === undefined || order.state !== 'cancelled') return;
  let filled = '0';
  for (const f of journal.fillsOfOrder(account, orderId)) filled = addDecimals(filled, f.size);
  if (compareDecimals(filled, order.filledSize) <= 0) return;
  journal.recordOrder(
    account,
    { ...order, filledSize: filled, state: compareDecimals(filled, order.size) >= 0 ? 'filled' : 'cancelled' },
    'fill',
    atMs,
  );
}

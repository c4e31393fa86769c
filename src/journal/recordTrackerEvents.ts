import { Subscription, type Observable } from 'rxjs';
import type { Clock } from '../core/clock.js';
import { isTerminal } from '../engine/orders/orderState.js';
import { storedOrder } from '../engine/orders/storedOrder.js';
import type { InferredOrderEvent } from '../engine/orders/orderModelEvent.js';
import type { AppliedOrderEvent } from '../engine/orders/orderStateMachine.js';
import type { TrackedFill, TrackedOrder, TrackedPosition } from '../engine/tracking/orderTracker.js';
import type { Journal } from './journal.js';
import { applyToJournal, journaledFillSum } from './journalOrderEvents.js';

export interface TrackerEvents {
  readonly orders$: Observable<TrackedOrder>;
  readonly fills$: Observable<TrackedFill>;
  /** Emits whenever positions may have changed (the positions channel, a reconciliation). */
  readonly positionsChanged$: Observable<unknown>;
  allPositions(): readonly TrackedPosition[];
  /** Why a reconciliation moved an order to this version (`OrderTracker.causeOf`): its journal source. */
  causeOf?(order: TrackedOrder): string | undefined;
  /** Applies an inferred event to an order the tracker holds (`OrderTracker.infer`); undefined when it holds none. */
  infer?(intentId: string, event: InferredOrderEvent): AppliedOrderEvent | undefined;
}

/**
 * Journals what the tracker learns: every order state change (with history; its source the
 * cause when a reconciliation inferred it, else `engine`) and a position
 * snapshot whenever a market's position changes. Fills are journaled by the tracker's fill ledger
 * (`journalFillLedger`) before the tracker counts them; here a fill only corrects an order a
 * snapshot had ended. The subjects are synchronous, so a change is on disk before the next
 * subscriber (a strategy) hears of it.
 */
export function recordTrackerEvents(
  journal: Journal,
  account: string,
  events: TrackerEvents,
  clock: Clock,
): Subscription {
  const subscriptions = new Subscription();
  subscriptions.add(
    events.orders$.subscribe((order) =>
      journal.recordOrder(account, order, events.causeOf?.(order) ?? 'engine', clock.now()),
    ),
  );
  subscriptions.add(
    events.fills$.subscribe((fill) => correctEndedOrder(journal, account, events, fill.orderId, clock.now())),
  );
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
 * The tracker's own fills never move an order out of an end, so a fill that arrives after a
 * snapshot stopped listing the order (marked cancelled: filled or cancelled could not be told)
 * would leave it cancelled with less filled. What the order's journaled fills add up to is an
 * event the order model applies (a cancelled order filled in full is filled): the tracker's
 * model when it holds the order (the journal records its change), else the journal's record.
 */
function correctEndedOrder(
  journal: Journal,
  account: string,
  events: TrackerEvents,
  orderId: string,
  atMs: number,
): void {
  const order = journal.orderByOrderId(orderId);
  if (order === undefined || !isTerminal(order.state)) return;
  const event = {
    type: 'fills_counted',
    cause: 'journaled_fills',
    fillSum: journaledFillSum(journal, account, orderId),
  } as const;
  if (events.infer?.(order.intentId, event) === undefined)
    applyToJournal(journal, account, storedOrder(order), event, atMs);
}

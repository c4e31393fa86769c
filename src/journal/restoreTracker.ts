import { compareDecimals } from '../core/decimal.js';
import { isResting } from '../engine/orders/orderState.js';
import type { OrderTracker } from '../engine/tracking/orderTracker.js';
import type { Journal } from './journal.js';

/**
 * Gives a fresh engine's tracker the orders a previous run left resting (as reconciled), so they
 * stay linked to their intents and strategies: a strategy sees them as its own open orders, can
 * cancel them by intent id, and the guards count them. Run before the journal follows the
 * tracker, so these replays are not journaled as new state changes.
 */
export function restoreTracker(tracker: OrderTracker, journal: Journal, account: string): number {
  let restored = 0;
  for (const order of journal.liveOrders(account)) {
    if (order.orderId === undefined || !isResting(order.state)) continue;
    tracker.submitted({
      intentId: order.intentId,
      strategy: order.strategy,
      marketId: order.marketId,
      side: order.side,
      size: order.size,
      price: order.price,
      ...(order.clientOrderId === undefined ? {} : { clientOrderId: BigInt(order.clientOrderId) }),
    });
    tracker.placed(order.intentId, order.orderId);
    if (compareDecimals(order.filledSize, '0') > 0) {
      tracker.onOrderRecords(
        [
          {
            order_id: order.orderId,
            market_id: order.marketId,
            status: 'ORDER_STATUS_OPEN',
            filled_size: order.filledSize,
            ...(order.restingOrderId === undefined ? {} : { resting_order_id: order.restingOrderId }),
          },
        ],
        false,
      );
    }
    restored += 1;
  }
  return restored;
}

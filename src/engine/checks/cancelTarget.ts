import { refusal, type Refusal } from '../intents/refusal.js';
import type { OrderTracker } from '../tracking/orderTracker.js';
import type { ResolvedAction, WireAction } from './wireAction.js';

export interface CancelLookup {
  readonly tracker: OrderTracker;
  /** Finds the resting id of an order the tracker does not know (open-orders read). */
  lookupRestingId(marketId: number, orderId: string): Promise<bigint | undefined>;
}

/**
 * A cancel's target resolved to the venue's ids, what its hash commits to (`resting_order_id`),
 * or why there is nothing to cancel. Every other action is signed as checked.
 */
export async function resolveCancel(
  action: Extract<WireAction, { action: 'cancelOrder' }>,
  deps: CancelLookup,
): Promise<ResolvedAction | Refusal> {
  let orderId: string | undefined;
  if ('intentId' in action.target) {
    const order = deps.tracker.order(action.target.intentId);
    if (order === undefined)
      return refusal('cancel_target', action.target.intentId, 'no order was placed by that intent');
    orderId = order.orderId;
    if (order.state === 'refused' || order.state === 'failed')
      return refusal('cancel_target_finished', action.target.intentId, `the order is ${order.state}: it never rested`);
    if (orderId === undefined) {
      return refusal(
        'cancel_target',
        action.target.intentId,
        `the order of that intent is ${order.state}, with no venue order id to cancel`,
        'cancel once its placement is accepted',
      );
    }
    if (order.state === 'filled' || order.state === 'cancelled')
      return refusal('cancel_target_finished', action.target.intentId, `the order is already ${order.state}`);
  } else {
    orderId = action.target.orderId;
  }
  // The venue answers a cancel in the wrong market with the same OrderNotFound as one of a finished
  // order: refused here, so that answer can only mean "no longer open".
  const tracked = deps.tracker.orderByOrderId(orderId);
  if (tracked !== undefined && tracked.marketId !== action.market_id) {
    return refusal(
      'cancel_target',
      orderId,
      `the order is in market ${tracked.marketId}, not in market ${action.market_id}`,
      'cancel it with the market it was placed in',
    );
  }
  const resting = deps.tracker.restingIdOf(orderId) ?? (await deps.lookupRestingId(action.market_id, orderId));
  if (resting === undefined)
    return refusal('cancel_target', orderId, 'the order is not open on the venue (no resting_order_id found)');
  return { action: 'cancelOrder', market_id: action.market_id, order_id: orderId, resting_order_id: resting };
}

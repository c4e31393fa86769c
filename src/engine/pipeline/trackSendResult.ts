import type { Intent } from '../intents/intents.js';
import type { Refusal } from '../intents/refusal.js';
import type { SendReceipt } from '../sending/actionSender.js';
import type { SendResult } from '../sending/sendResult.js';
import { isUnconfirmed } from '../sending/sendWithPolicy.js';
import type { ResolvedAction } from '../signing/signedRequest.js';
import type { OrderTracker } from '../tracking/orderTracker.js';
import { errorSummary } from './intentOutcomes.js';

/**
 * The track stage: what each step of an intent's way means for the one order model. A placement
 * becomes `submitted` just before it is signed, ends `refused`, `failed` or `unknown` when it does
 * not land, and is `placed` (a cancel `cancelled`, a margin mode set) when the venue accepts it.
 */

/**
 * The placement is about to be signed and sent: in flight in the order model, with its size and
 * price as checked. False when the order was cancelled while it was queued: it must not go.
 */
export function trackSubmitted(
  intent: Intent,
  action: Extract<ResolvedAction, { action: 'placeOrder' }>,
  tracker: OrderTracker,
): boolean {
  if (tracker.order(intent.intentId)?.state === 'cancelled') return false;
  const order: Parameters<OrderTracker['submitted']>[0] = {
    intentId: intent.intentId,
    strategy: intent.strategy,
    marketId: intent.marketId,
    side: action.order.side === 0 ? 'buy' : 'sell',
    size: action.size,
    price: action.price,
  };
  const clientOrderId = action.order.client_order_id;
  tracker.submitted(clientOrderId === undefined ? order : Object.assign(order, { clientOrderId }));
  return true;
}

/** A placement (a close too) refused before it was sent: its order ends `refused`. */
export function trackRefused(intent: Intent, r: Refusal, tracker: OrderTracker): void {
  if (intent.kind === 'placeLimit' || intent.kind === 'placeMarket' || intent.kind === 'closePosition')
    tracker.settle(intent.intentId, 'refused', { code: r.rule, reason: r.reason, by: 'checks' });
}

/** What the send's result means for the tracker: the accepted action's effect, or a placement that did not land. */
export function trackSendResult(
  intent: Intent,
  action: ResolvedAction,
  result: SendResult,
  tracker: OrderTracker,
): void {
  if (result.type === 'accepted') onAccepted(action, result.receipt, intent, tracker);
  else if (result.type === 'withheld') {
    if (action.action === 'cancelOrder') tracker.cancelDropped(action.order_id);
    if (action.action === 'placeOrder')
      tracker.settle(intent.intentId, 'refused', {
        code: result.refusal.rule,
        reason: result.refusal.reason,
        by: 'checks',
      });
  } else if (action.action === 'placeOrder') {
    if (result.type === 'unknown' || isUnconfirmed(result.error)) tracker.settle(intent.intentId, 'unknown');
    else {
      const error = errorSummary(result.error);
      tracker.settle(intent.intentId, 'failed', { code: error.code, reason: error.message, by: 'venue' });
    }
  }
}

function onAccepted(action: ResolvedAction, receipt: SendReceipt, intent: Intent, tracker: OrderTracker): void {
  if (receipt.dryRun === true) return;
  if (action.action === 'placeOrder' && receipt.orderId !== undefined) tracker.placed(intent.intentId, receipt.orderId);
  if (action.action === 'cancelOrder') tracker.cancelled(action.order_id);
  if (action.action === 'cancelAllOrders')
    for (const o of tracker.openOrders({ marketId: action.market_id }))
      if (o.orderId !== undefined) tracker.cancelled(o.orderId);
  if (action.action === 'updateMarginMode')
    tracker.setMarginMode(action.market_id, action.margin_mode === 1 ? 'isolated' : 'cross');
}

import type { Clock } from '../../core/clock.js';
import type { IntentOutcome } from '../intents/intentOutcome.js';
import type { Intent } from '../intents/intents.js';
import type { Refusal } from '../intents/refusal.js';
import type { SendReceipt } from '../sending/actionSender.js';
import type { SendResult } from '../sending/sendResult.js';
import { isUnconfirmed } from '../sending/sendWithPolicy.js';
import type { ResolvedAction } from '../checks/wireAction.js';
import type { OrderTracker } from '../tracking/orderTracker.js';
import { errorSummary, outcomeOf, refusedOutcome } from './intentOutcomes.js';

/** What reached the track stage: the action's send result, or the refusal that ended its way before. */
export type Reached =
  | { readonly refusal: Refusal; readonly orderEnded?: true }
  | { readonly action: ResolvedAction; readonly result: SendResult };

/**
 * The track stage, the last: what the intent's way means for the one order model and its one
 * terminal outcome. A placement refused before it was sent ends `refused`; one that was sent ends
 * `placed`, `failed` or `unknown` by the send's result (a cancel `cancelled`, a margin mode set).
 */
export function trackStage(
  intent: Intent,
  reached: Reached,
  deps: { tracker: OrderTracker; clock: Clock },
): IntentOutcome {
  const atMs = deps.clock.now();
  if ('refusal' in reached) {
    if (reached.orderEnded !== true) trackRefused(intent, reached.refusal, deps.tracker);
    return refusedOutcome(intent, reached.refusal, atMs);
  }
  trackSendResult(intent, reached.action, reached.result, deps.tracker);
  return outcomeOf(intent, reached.action, reached.result, atMs);
}

/** A placement (a close too) refused before it was sent: its order ends `refused`. */
function trackRefused(intent: Intent, r: Refusal, tracker: OrderTracker): void {
  if (intent.kind === 'placeLimit' || intent.kind === 'placeMarket' || intent.kind === 'closePosition')
    tracker.settle(intent.intentId, 'refused', { code: r.rule, reason: r.reason, by: 'checks' });
}

/** What the send's result means for the tracker: the accepted action's effect, or a placement that did not land. */
function trackSendResult(intent: Intent, action: ResolvedAction, result: SendResult, tracker: OrderTracker): void {
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

import { VenueError } from '../../venue/venueError.js';
import { IntentFailedError } from '../sending/sendDeps.js';
import type { Intent } from '../intents/intents.js';
import { refusal, type Refusal } from '../intents/refusal.js';
import type { ResolvedAction } from '../checks/wireAction.js';

/**
 * A cancel the venue answered `OrderNotFound`: the order was no longer open when the cancel
 * arrived (it filled, expired or was cancelled first, a normal race in live trading). The spec
 * shows no error for it; the simulator reverts `CancelOrder reverted: OrderNotFound(<resting id>)`
 * (docs/spec-gaps/engine.md). The order is off the book, which is what the cancel wanted, so this is the
 * same `cancel_target_finished` refusal as when the tracker already knew, never a failure.
 *
 * Only whether the order is open is known here, not its fate: the orders and fills channels (or a
 * reconciliation's history read) say whether it filled or was cancelled, so the caller must leave
 * the tracker as it is. Undefined for any other answer or action.
 */
export function finishedCancelTarget(intent: Intent, action: ResolvedAction, error: unknown): Refusal | undefined {
  if (action.action !== 'cancelOrder' || intent.kind !== 'cancel') return undefined;
  const target = 'intentId' in intent.target ? intent.target.intentId : action.order_id;
  const hint = 'nothing to cancel; the order events (filled or cancelled) follow from the venue feeds';
  // After a send with no answer, the venue's state showed the order gone by a fill (confirmFirstSend).
  if (error instanceof IntentFailedError && error.code === 'CANCEL_TARGET_FINISHED')
    return refusal('cancel_target_finished', target, error.message, hint);
  if (!(error instanceof VenueError) || error.errorName !== 'OrderNotFound') return undefined;
  return refusal(
    'cancel_target_finished',
    target,
    `the venue has no open order ${action.order_id} (OrderNotFound): it already filled or was cancelled`,
    hint,
  );
}

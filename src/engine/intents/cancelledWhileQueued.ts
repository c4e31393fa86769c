import type { Intent } from './intents.js';
import { refusal, type Refusal } from './refusal.js';

/**
 * The one refusal of a placement cancelled before it left the queue: while it waited for its
 * strategy's earlier cancels, for admission (the strategy's budget, the account's limits), or for
 * the hold of a replay. Nothing was sent for it.
 */
export function cancelledWhileQueued(intent: Pick<Intent, 'intentId'>): Refusal {
  return refusal(
    'cancelled_queued',
    intent.intentId,
    "cancelled while it was queued (for admission, or behind its strategy's earlier cancels): nothing was sent",
  );
}

import type { IntentOutcome } from '../intents/intentOutcome.js';
import type { CancelIntent } from '../intents/intents.js';
import type { AcceptDeps } from './acceptDeps.js';

/**
 * A cancel asks its target to go. A target still queued goes at once, nothing sent, and the
 * cancel is accepted here; otherwise the cancel runs on through the stages.
 */
export function acceptCancel(intent: CancelIntent, deps: AcceptDeps): IntentOutcome | undefined {
  const target =
    'intentId' in intent.target ? intent.target.intentId : deps.tracker.orderByOrderId(intent.target.orderId)?.intentId;
  if (target === undefined || !deps.cancelQueued(target)) return undefined;
  return {
    intentId: intent.intentId,
    strategy: intent.strategy,
    kind: intent.kind,
    marketId: intent.marketId,
    type: 'accepted',
    atMs: deps.now(),
  };
}

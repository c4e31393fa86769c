import type { CancelAllIntent } from '../intents/intents.js';
import type { AcceptDeps } from './acceptDeps.js';

/** A cancel-all takes its market's queued orders out of the queue at once (nothing sent) and runs on for the rest. */
export function acceptCancelAll(intent: CancelAllIntent, deps: AcceptDeps): void {
  for (const o of deps.tracker.openOrders({ marketId: intent.marketId })) deps.cancelQueued(o.intentId);
}

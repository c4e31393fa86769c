import type { IntentOutcome } from '../intents/intentOutcome.js';
import type { PlaceLimitIntent, ReplaceIntent } from '../intents/intents.js';
import type { OrderTracker } from '../tracking/orderTracker.js';

/** What the accept stage needs: the order model, the replacements' part of an arrival, a queued order's cancel. */
export interface AcceptDeps {
  readonly tracker: OrderTracker;
  /** A replacement as it arrives: its own outcome when it goes no further (`Quoting.arrivedReplace`). */
  arrivedReplace(intent: ReplaceIntent): IntentOutcome | undefined;
  /** A limit placement's terms, kept for a later replacement (`Quoting.arrived`). */
  arrivedPlacement(intent: PlaceLimitIntent): void;
  /** Asks the order to go; a queued one goes now (withdrawn from admission, nothing sent). True when it was queued. */
  cancelQueued(intentId: string): boolean;
  now(): number;
}

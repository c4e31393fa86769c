import type { ClosePositionIntent, PlaceIntent } from '../intents/intents.js';
import type { AcceptDeps } from './acceptDeps.js';
import { queuedOrderOf } from './queuedOrder.js';

/** A placement (a close too) is the engine's order from here on: `queued`, listed by `tracker.openOrders()`. */
export function acceptPlacement(intent: PlaceIntent | ClosePositionIntent, deps: AcceptDeps): void {
  const order = queuedOrderOf(intent, (marketId) => deps.tracker.position(marketId));
  if (order === undefined) return;
  if (intent.kind === 'placeLimit') deps.arrivedPlacement(intent);
  deps.tracker.queued(order);
}

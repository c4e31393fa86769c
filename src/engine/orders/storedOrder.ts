import type { Side } from '../intents/intents.js';
import type { OrderState } from './orderState.js';
import { trackedOrder, type TrackedOrder } from './trackedOrder.js';

/** An order as a store keeps it (the journal's rows): plain, with its ids as decimal strings. */
export interface StoredOrder {
  readonly intentId: string;
  readonly strategy: string;
  readonly marketId: number;
  readonly side: Side;
  readonly size: string;
  readonly price: string;
  readonly clientOrderId?: string;
  readonly orderId?: string;
  readonly restingOrderId?: string;
  readonly state: OrderState;
  readonly filledSize: string;
}

/**
 * A stored order as the order model holds it, so that the model's one function
 * (`applyOrderEvent`) applies to orders no live tracker holds (a previous run's, at start or in
 * `perpbot reconcile`) as to the tracker's own.
 */
export function storedOrder(stored: StoredOrder): TrackedOrder {
  const spec = {
    intentId: stored.intentId,
    strategy: stored.strategy,
    marketId: stored.marketId,
    side: stored.side,
    size: stored.size,
    price: stored.price,
    ...(stored.clientOrderId === undefined ? {} : { clientOrderId: BigInt(stored.clientOrderId) }),
  };
  const resting = stored.restingOrderId === undefined ? undefined : BigInt(stored.restingOrderId);
  return trackedOrder(spec, stored.state, stored.filledSize, stored.orderId, resting);
}

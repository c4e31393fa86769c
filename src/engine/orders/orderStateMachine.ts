import type { OrderState } from '../tracking/trackedOrder.js';

/**
 * The order's states and the moves between them: the one table every change of an order of this
 * process passes (`OrderTracker`), NautilusTrader's order state machine the model. An order is
 * `queued` from the moment its intent arrives (waiting on admission), `pending` once admitted and
 * on its way (signed, sent, awaiting the answer), `unknown` when a send got no definite answer,
 * `open` or `partially_filled` while it rests, and ends `filled`, `cancelled` (an expiry too),
 * `refused` (never placed: a check, or the venue) or `failed` (sending gave up). Nothing leaves an
 * end. A fill may be reported before the placement's answer, so a placement in flight may go
 * straight to any venue state.
 */
export const ORDER_TRANSITIONS: Readonly<Record<OrderState, readonly OrderState[]>> = {
  queued: ['pending', 'cancelled', 'refused', 'failed'],
  pending: ['open', 'partially_filled', 'filled', 'cancelled', 'refused', 'failed', 'unknown'],
  unknown: ['open', 'partially_filled', 'filled', 'cancelled', 'refused', 'failed'],
  open: ['partially_filled', 'filled', 'cancelled'],
  partially_filled: ['partially_filled', 'filled', 'cancelled'],
  filled: [],
  cancelled: [],
  refused: [],
  failed: [],
};

/** A move the table does not allow: refused, never written. */
export interface RefusedTransition {
  readonly from: OrderState;
  readonly to: OrderState;
  readonly reason: string;
}

/**
 * Whether an order may move from `from` to `to`: undefined when it may (staying in a state, with
 * more filled, is always allowed), the refusal otherwise. A new order (`from` undefined) may start
 * anywhere a report can first show it (queued by its intent, or already on the venue when adopted).
 */
export function checkTransition(from: OrderState | undefined, to: OrderState): RefusedTransition | undefined {
  if (from === undefined || from === to) return undefined;
  if (ORDER_TRANSITIONS[from].includes(to)) return undefined;
  const allowed = ORDER_TRANSITIONS[from];
  return {
    from,
    to,
    reason:
      allowed.length === 0
        ? `an order ${from} has ended: nothing follows`
        : `an order ${from} can only become ${allowed.join(', ')}`,
  };
}

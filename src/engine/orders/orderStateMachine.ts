import { isInferredCorrection, nextOfInferred } from './inferredOrderEvents.js';
import type { InferenceCause, InferredOrderEvent, OrderModelEvent } from './orderModelEvent.js';
import { isAwaitingVenue, isResting, isTerminal, type OrderState } from './orderState.js';
import {
  isAllFilled,
  largerFilledSize,
  restingIdFromOrderId,
  stateOfRecord,
  trackedOrder,
  type TrackedOrder,
} from './trackedOrder.js';

export type { OrderState } from './orderState.js';
export { INFERRED_CORRECTIONS } from './inferredOrderEvents.js';

/**
 * The order's states and the moves between them: the one table every change of an order of this
 * process passes, NautilusTrader's order state machine the model. An order is `queued` from the
 * moment its intent arrives (waiting on admission), `submitted` once admitted and on its way
 * (signed, sent, awaiting the answer), `unknown` when a send got no definite answer, `open` or
 * `partially_filled` while it rests, and ends `filled`, `cancelled` (an expiry too), `refused`
 * (never placed: a check, or the venue) or `failed` (sending gave up). Nothing leaves an end. A
 * fill may be reported before the placement's answer, so a placement in flight may go straight to
 * any venue state. Reconciliation's inferred events may also make the few corrections of
 * `INFERRED_CORRECTIONS`, each for its cause.
 */
export const ORDER_TRANSITIONS: Readonly<Record<OrderState, readonly OrderState[]>> = {
  queued: ['submitted', 'cancelled', 'refused', 'failed'],
  submitted: ['open', 'partially_filled', 'filled', 'cancelled', 'refused', 'failed', 'unknown'],
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
 * What an event does to an order: `moved` (its new version, which may keep its state and only
 * learn an id or a larger filled size), `unchanged` (the event does not apply: a late report of an
 * order that has ended, a second `queued`), or `refused` by the table, never written.
 */
export type AppliedOrderEvent =
  | { readonly kind: 'moved'; readonly order: TrackedOrder }
  | { readonly kind: 'unchanged' }
  | { readonly kind: 'refused'; readonly refusal: RefusedTransition };

/**
 * Whether an order may move from `from` to `to`: undefined when it may (staying in a state, with
 * more filled, is always allowed), the refusal otherwise. A new order (`from` undefined) may start
 * anywhere a report can first show it (queued by its intent, or already on the venue when adopted).
 * `cause`: the event is reconciliation's, inferred from the venue; it may also make the
 * corrections `INFERRED_CORRECTIONS` allows for that cause.
 */
export function checkTransition(
  from: OrderState | undefined,
  to: OrderState,
  cause?: InferenceCause,
): RefusedTransition | undefined {
  if (from === undefined || from === to) return undefined;
  if (ORDER_TRANSITIONS[from].includes(to)) return undefined;
  if (cause !== undefined && isInferredCorrection(cause, from, to)) return undefined;
  const allowed = ORDER_TRANSITIONS[from];
  return {
    from,
    to,
    reason:
      allowed.length === 0
        ? `an order ${from} has ended: nothing follows${cause === undefined ? '' : ` (not even per ${cause})`}`
        : `an order ${from} can only become ${allowed.join(', ')}`,
  };
}

/**
 * The order model's one rule: the order `event` makes of `order` (undefined before its first
 * event), checked against the table. Every change of an order passes here, from the engine's own
 * sends, the venue's feeds and reconciliation alike.
 */
export function applyOrderEvent(order: TrackedOrder | undefined, event: OrderModelEvent): AppliedOrderEvent {
  const inferred = isInferred(event);
  const next = inferred ? nextOfInferred(order, event) : nextOrder(order, event);
  if (next === undefined) return UNCHANGED;
  const refusal = checkTransition(order?.state, next.state, inferred ? event.cause : undefined);
  return refusal === undefined ? { kind: 'moved', order: next } : { kind: 'refused', refusal };
}

const UNCHANGED: AppliedOrderEvent = { kind: 'unchanged' };

/** Reconciliation's events (`send_ended` carries a `cause` too: its end's, not an inference's). */
const INFERRED_TYPES: ReadonlySet<OrderModelEvent['type']> = new Set<InferredOrderEvent['type']>([
  'history_recorded',
  'fills_counted',
  'not_executed',
  'found_resting',
  'position_judged',
]);

function isInferred(event: OrderModelEvent): event is InferredOrderEvent {
  return INFERRED_TYPES.has(event.type);
}

/** The cause of an event reconciliation inferred; undefined for any other. */
export function inferenceCauseOf(event: OrderModelEvent): InferenceCause | undefined {
  return isInferred(event) ? event.cause : undefined;
}

/** The order's next version, or undefined when the event does not apply to it. */
function nextOrder(
  order: TrackedOrder | undefined,
  event: Exclude<OrderModelEvent, InferredOrderEvent>,
): TrackedOrder | undefined {
  if (event.type === 'queued') return order === undefined ? trackedOrder(event.order, 'queued', '0') : undefined;
  if (event.type === 'submitted') {
    if (order !== undefined && order.state !== 'queued') return undefined;
    const spec = event.order;
    return trackedOrder(spec, 'submitted', '0', spec.orderId, spec.restingOrderId, order ?? spec);
  }
  return order === undefined ? undefined : nextOfKnown(order, event);
}

function nextOfKnown(
  order: TrackedOrder,
  event: Exclude<OrderModelEvent, InferredOrderEvent | { type: 'queued' | 'submitted' }>,
): TrackedOrder | undefined {
  switch (event.type) {
    case 'cancelled_while_queued':
      return order.state === 'queued' ? trackedOrder(order, 'cancelled', '0') : undefined;
    case 'accepted':
      return accepted(order, event.orderId, event.restingOrderId);
    case 'send_ended':
      return isAwaitingVenue(order.state) ? trackedOrder(order, event.state, order.filledSize) : undefined;
    case 'cancel_accepted':
      return isTerminal(order.state) ? undefined : trackedOrder(order, 'cancelled', order.filledSize);
    case 'venue_reported':
      return reported(order, event);
    case 'left_book':
      return isResting(order.state) && order.orderId !== undefined
        ? trackedOrder(order, isAllFilled(order, order.filledSize) ? 'filled' : 'cancelled', order.filledSize)
        : undefined;
    case 'filled_by':
      return isTerminal(order.state) ? undefined : filledBy(order, largerFilledSize(order.filledSize, event.fillSum));
  }
}

/** Named by the venue: resting unless a feed has already reported it further on (never moved back). */
function accepted(order: TrackedOrder, orderId: string, restingOrderId: bigint | undefined): TrackedOrder {
  const resting = order.restingOrderId ?? restingOrderId ?? restingIdFromOrderId(orderId);
  const state = order.state === 'submitted' || order.state === 'unknown' ? 'open' : order.state;
  return trackedOrder(order, state, order.filledSize, orderId, resting);
}

/** The venue's record: its status unless the order has ended, the larger filled size of the two. */
function reported(order: TrackedOrder, event: Extract<OrderModelEvent, { type: 'venue_reported' }>): TrackedOrder {
  const filled = event.filledSize ?? order.filledSize;
  const state = isTerminal(order.state) ? order.state : stateOfRecord(event.status, filled);
  const resting = event.restingOrderId ?? order.restingOrderId;
  return trackedOrder(order, state, largerFilledSize(order.filledSize, filled), order.orderId, resting);
}

function filledBy(order: TrackedOrder, filledSize: string): TrackedOrder {
  return trackedOrder(order, isAllFilled(order, filledSize) ? 'filled' : 'partially_filled', filledSize);
}

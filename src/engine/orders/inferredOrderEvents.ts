import { compareDecimals } from '../../core/decimal.js';
import type { InferenceCause, InferredOrderEvent } from './orderModelEvent.js';
import { isResting, isTerminal, type OrderState } from './orderState.js';
import {
  isAllFilled,
  largerFilledSize,
  restingIdFromOrderId,
  stateOfRecord,
  trackedOrder,
  type TrackedOrder,
} from './trackedOrder.js';

/**
 * The moves out of an end that only reconciliation's evidence may make, by cause, beyond
 * `ORDER_TRANSITIONS`. The model reaches one end without the venue's word: an order a snapshot no
 * longer lists while its fills are unseen is called `cancelled` (`left_book`). The venue's own
 * record corrects that: its order or trade history (fills after the cancel, as NautilusTrader
 * allows) says it filled, its open orders that it still rests. An order that left the book whose
 * fate neither history nor the position tells is `unknown` again, judged at the next
 * reconciliation. Nothing else leaves an end: a filled, refused or failed order stays so.
 */
export const INFERRED_CORRECTIONS: Readonly<
  Record<InferenceCause, Readonly<Partial<Record<OrderState, readonly OrderState[]>>>>
> = {
  order_history: { cancelled: ['filled'] },
  trade_history: { cancelled: ['filled'] },
  journaled_fills: { cancelled: ['filled'] },
  nonce_state: {},
  venue_open_orders: { cancelled: ['open', 'partially_filled'] },
  position: { open: ['unknown'], partially_filled: ['unknown'], cancelled: ['filled', 'unknown'] },
};

/** Whether reconciliation's `cause` may correct `from` to `to` (see `INFERRED_CORRECTIONS`). */
export function isInferredCorrection(cause: InferenceCause, from: OrderState, to: OrderState): boolean {
  return INFERRED_CORRECTIONS[cause][from]?.includes(to) === true;
}

/** The order an inferred event makes (undefined: the event does not apply); the table then judges the move. */
export function nextOfInferred(order: TrackedOrder | undefined, event: InferredOrderEvent): TrackedOrder | undefined {
  if (order === undefined) return firstOfInferred(event);
  switch (event.type) {
    case 'history_recorded':
      return historyRecorded(order, event);
    case 'fills_counted':
      return fillsCounted(order, event.fillSum);
    case 'not_executed':
      return trackedOrder(order, 'failed', order.filledSize);
    case 'found_resting': {
      const resting = event.restingOrderId ?? order.restingOrderId ?? restingIdFromOrderId(event.orderId);
      const state = compareDecimals(order.filledSize, '0') > 0 ? 'partially_filled' : 'open';
      return trackedOrder(
        order,
        isResting(order.state) ? order.state : state,
        order.filledSize,
        event.orderId,
        resting,
      );
    }
    case 'position_judged':
      return positionJudged(order, event.verdict);
  }
}

/** An order unknown to us that the venue lists (open orders) or records (history) with its spec. */
function firstOfInferred(event: InferredOrderEvent): TrackedOrder | undefined {
  if (event.type === 'found_resting' && event.order !== undefined)
    return trackedOrder(
      event.order,
      'open',
      '0',
      event.orderId,
      event.restingOrderId ?? restingIdFromOrderId(event.orderId),
    );
  if (event.type === 'history_recorded' && event.order !== undefined)
    return trackedOrder(
      event.order,
      stateOfRecord(event.status, event.filledSize),
      event.filledSize,
      event.orderId,
      event.restingOrderId ?? restingIdFromOrderId(event.orderId),
    );
  return undefined;
}

/**
 * The history's record: its status with the larger filled size of the two. A record still open
 * does not reopen an order that has ended (a read between two events).
 */
function historyRecorded(
  order: TrackedOrder,
  event: Extract<InferredOrderEvent, { type: 'history_recorded' }>,
): TrackedOrder | undefined {
  const filled = largerFilledSize(order.filledSize, event.filledSize);
  const state = stateOfRecord(event.status, filled);
  if (isTerminal(order.state) && !isTerminal(state)) return undefined;
  const resting = event.restingOrderId ?? order.restingOrderId ?? restingIdFromOrderId(event.orderId);
  return trackedOrder(order, state, filled, event.orderId, resting);
}

/**
 * The order's journaled fills: all of it filled ends it filled; part of it, a live order is
 * partially filled and a cancelled one keeps its end with what filled. Other ends stay as they are.
 */
function fillsCounted(order: TrackedOrder, fillSum: string): TrackedOrder | undefined {
  const filled = largerFilledSize(order.filledSize, fillSum);
  if (isAllFilled(order, filled))
    return order.state === 'cancelled' || !isTerminal(order.state) ? trackedOrder(order, 'filled', filled) : undefined;
  if (compareDecimals(filled, order.filledSize) === 0) return undefined;
  if (order.state === 'cancelled') return trackedOrder(order, 'cancelled', filled);
  return isTerminal(order.state) ? undefined : trackedOrder(order, 'partially_filled', filled);
}

/** Filled: its remainder filled too; cancelled: nothing more filled; untold: its state is unknown. */
function positionJudged(order: TrackedOrder, verdict: 'filled' | 'cancelled' | 'untold'): TrackedOrder {
  if (verdict === 'filled') return trackedOrder(order, 'filled', largerFilledSize(order.filledSize, order.size));
  return trackedOrder(order, verdict === 'cancelled' ? 'cancelled' : 'unknown', order.filledSize);
}

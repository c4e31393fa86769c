import { addDecimals, compareDecimals, negateDecimal } from '../../core/decimal.js';
import { remainingSize } from './remainingSize.js';
import { isAwaitingVenue, type OrderState, type TrackedOrder } from './trackedOrder.js';
import type { OrderEvent, OrderEventType } from './orderEvent.js';
import type { OrderEndCause } from './orderModelEvent.js';

/** What the tracker knows beside the order when it changes. */
export interface TransitionContext {
  readonly atMs: number;
  /** A cancel (or cancel-all) of this process asked for the order to go. */
  readonly cancelRequested: boolean;
  /** Why a placement ended `refused` or `failed`. */
  readonly cause?: OrderEndCause | undefined;
}

const ON_VENUE: ReadonlySet<OrderState> = new Set(['open', 'partially_filled', 'filled', 'cancelled']);

/**
 * The events one change of an order means, in order: the tracker's state is the one order model,
 * and this is its one translation into `OrderEvent`s (no second state machine). `placed` is
 * delivered once, before anything the venue reported about the order (a fill may arrive before
 * the placement's answer); a fill reported with a cancel is delivered before the cancel.
 */
export function orderEventsOf(
  before: TrackedOrder | undefined,
  after: TrackedOrder,
  context: TransitionContext,
): readonly OrderEvent[] {
  const from = before?.state;
  const to = after.state;
  if (from === to && before?.filledSize === after.filledSize) return [];
  if (to === 'queued' || to === 'submitted' || to === 'unknown')
    return from === to ? [] : [event(after, to, context.atMs)];
  const events: OrderEvent[] = [];
  if (reachedVenue(from, to)) events.push(event(after, 'placed', context.atMs, before?.filledSize ?? '0'));
  events.push(...venueEvents(before?.filledSize ?? '0', after, context));
  // An ended order that learns of more filled (a fill after the cancel) has ended once already.
  return from === to ? events.filter((e) => e.type === 'partially_filled') : events;
}

/** The first report that the venue has the order: `placed` goes before it. */
function reachedVenue(from: OrderState | undefined, to: OrderState): boolean {
  if (!ON_VENUE.has(to)) return false;
  if (from === undefined) return true;
  // A queued order cancelled was never sent.
  return isAwaitingVenue(from) && !(to === 'cancelled' && from === 'queued');
}

/** What the order's new state on (or off) the venue means: fills, then its end. */
function venueEvents(filledBefore: string, after: TrackedOrder, context: TransitionContext): OrderEvent[] {
  const { atMs } = context;
  switch (after.state) {
    case 'open':
    case 'partially_filled':
      return grew(after, filledBefore) ? [filled(after, 'partially_filled', filledBefore, after.filledSize, atMs)] : [];
    case 'filled':
      return [filled(after, 'filled', filledBefore, larger(after.filledSize, after.size), atMs)];
    case 'cancelled': {
      const fills = grew(after, filledBefore)
        ? [filled(after, 'partially_filled', filledBefore, after.filledSize, atMs)]
        : [];
      const end: OrderEvent =
        after.expires === true && !context.cancelRequested
          ? event(after, 'expired', atMs)
          : ({ ...event(after, 'cancelled', atMs), requested: context.cancelRequested } as OrderEvent);
      return [...fills, end];
    }
    case 'refused':
    case 'failed':
      return [ended(after, context)];
    case 'queued':
    case 'submitted':
    case 'unknown':
      return [];
  }
}

/**
 * Whether more is filled than before. A function of its own, not a closure per change: under tsx
 * (`npm start`) every closure made is also named by a defineProperty, which showed in profiles.
 */
function grew(after: TrackedOrder, filledBefore: string): boolean {
  return compareDecimals(after.filledSize, filledBefore) > 0;
}

/** `refused`: by our checks (the order's state `refused`) or at the venue (`failed`), with why. */
function ended(after: TrackedOrder, context: TransitionContext): OrderEvent {
  const cause = context.cause ?? {
    code: after.state.toUpperCase(),
    reason: `the order was ${after.state}`,
    by: after.state === 'refused' ? 'checks' : 'venue',
  };
  return { ...event(after, 'refused', context.atMs), ...cause };
}

function filled(order: TrackedOrder, type: OrderEventType, before: string, now: string, atMs: number): OrderEvent {
  return { ...event(order, type, atMs, now), lastFillSize: addDecimals(now, negateDecimal(before)) } as OrderEvent;
}

function event(order: TrackedOrder, type: OrderEventType, atMs: number, filledSize = order.filledSize): OrderEvent {
  const built: Record<string, unknown> = {
    type,
    intentId: order.intentId,
    strategy: order.strategy,
    marketId: order.marketId,
    side: order.side,
    size: order.size,
  };
  if (order.market !== true) built['price'] = order.price;
  if (order.orderId !== undefined) built['orderId'] = order.orderId;
  built['filledSize'] = filledSize;
  built['remainingSize'] = remainingSize(order.size, filledSize);
  built['atMs'] = atMs;
  return built as unknown as OrderEvent;
}

function larger(a: string, b: string): string {
  try {
    return compareDecimals(a, b) >= 0 ? a : b;
  } catch {
    return a;
  }
}

import type { Side } from '../intents/intents.js';

/**
 * One order's life, keyed by the intent that placed it: the engine's one order model publishes
 * every transition on `engine.orderEvents$` (NautilusTrader's order events are the model), and a
 * strategy's `ctx.orderEvents` is that stream filtered to its own orders. Per intent the events
 * come in this order: `queued` once (the engine owns the order from the moment the intent
 * arrives; it may wait there on the strategy's budget or a rate limit), `submitted` once it is
 * admitted and about to be signed and sent, `unknown` when the send got no definite answer,
 * `placed` once, `partially_filled` any number of times (each with what is left), then exactly one
 * terminal event: `filled`, `cancelled`, `expired` or `refused`. Nothing follows a terminal event.
 * A `refused` order was never placed, so it has no `placed`; an order cancelled while queued has
 * no `submitted` and no `placed` (nothing was sent).
 *
 * The venue may report a market order's fills before its placement answer: `placed` is still
 * delivered first (from whichever report came first), and `orderId` is on it when known by then.
 */
export type OrderEventType =
  'queued' | 'submitted' | 'unknown' | 'placed' | 'partially_filled' | 'filled' | 'cancelled' | 'expired' | 'refused';

interface OrderEventBase {
  readonly type: OrderEventType;
  readonly intentId: string;
  readonly strategy: string;
  readonly marketId: number;
  readonly side: Side;
  /** The order's size as placed (a closePosition's size is known once the venue reports it). */
  readonly size: string;
  /** The limit price as placed (absent for market orders). */
  readonly price?: string;
  /** The venue's order id, once known. */
  readonly orderId?: string;
  /** Total filled so far. */
  readonly filledSize: string;
  /** size − filledSize. */
  readonly remainingSize: string;
  /** Engine clock (ms) when the engine saw it. */
  readonly atMs: number;
}

/** The engine has the order; it waits for admission (the strategy's budget, the account's limits, a rate limit). */
export interface OrderQueuedEvent extends OrderEventBase {
  readonly type: 'queued';
}

/** Admitted: being signed and sent (in flight until the venue answers). */
export interface OrderSubmittedEvent extends OrderEventBase {
  readonly type: 'submitted';
}

/** Sent without a definite answer: still in flight until the venue's state or a reconciliation shows its fate. */
export interface OrderUnknownEvent extends OrderEventBase {
  readonly type: 'unknown';
}

/** The venue has the order (resting, or about to fill). */
export interface OrderPlacedEvent extends OrderEventBase {
  readonly type: 'placed';
}

/** Some of it filled; `remainingSize` is what still rests (or is still to match). */
export interface OrderPartiallyFilledEvent extends OrderEventBase {
  readonly type: 'partially_filled';
  /** What this step filled. */
  readonly lastFillSize: string;
}

/** All of it filled. */
export interface OrderFilledEvent extends OrderEventBase {
  readonly type: 'filled';
  readonly lastFillSize: string;
}

/** Cancelled: by a cancel of ours, a cancel-all, the venue, or another client of the account. */
export interface OrderCancelledEvent extends OrderEventBase {
  readonly type: 'cancelled';
  /** Whether a cancel or cancel-all of this process asked for it. */
  readonly requested: boolean;
}

/**
 * Ended by its own time in force without a cancel of ours: the unfilled rest of an IOC, FOK or
 * market order, or a GTT order past its time.
 */
export interface OrderExpiredEvent extends OrderEventBase {
  readonly type: 'expired';
}

/** Never placed: refused by a local check or guard, or by the venue. */
export interface OrderRefusedEvent extends OrderEventBase {
  readonly type: 'refused';
  /** The local rule (`by: 'checks'`) or the error's code (`by: 'venue'`). */
  readonly code: string;
  readonly reason: string;
  /**
   * Who refused it: `checks`, a pre-trade check, guard, budget or the stopping engine, before
   * anything was signed; `venue`, on its way to the venue or there: the venue said no, or sending
   * gave up (the retries or the permit's re-signs ran out, an unexpected error; `code` says which).
   */
  readonly by: 'checks' | 'venue';
}

export type OrderEvent =
  | OrderQueuedEvent
  | OrderSubmittedEvent
  | OrderUnknownEvent
  | OrderPlacedEvent
  | OrderPartiallyFilledEvent
  | OrderFilledEvent
  | OrderCancelledEvent
  | OrderExpiredEvent
  | OrderRefusedEvent;

export type TerminalOrderEvent = OrderFilledEvent | OrderCancelledEvent | OrderExpiredEvent | OrderRefusedEvent;

export function isTerminalOrderEvent(event: OrderEvent): event is TerminalOrderEvent {
  return event.type === 'filled' || event.type === 'cancelled' || event.type === 'expired' || event.type === 'refused';
}

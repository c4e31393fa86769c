import type { OrderRecord } from '../../venue/schemas/wsFramesPrivate.js';
import type { TrackedOrder } from './trackedOrder.js';

/** Why an order ended without reaching the book: the local rule or the venue's error. */
export interface OrderEndCause {
  readonly code: string;
  readonly reason: string;
  readonly by: 'checks' | 'venue';
}

/** An order as the strategy asked for it (and, once checked, as it is signed): no state yet. */
export type OrderSpec = Omit<TrackedOrder, 'state' | 'filledSize'>;

/**
 * Where reconciliation read what it infers of an order: the venue's order history, its trade
 * history, the fills the journal holds of the order (the fills channel's and the trade history's),
 * its nonce state, its open orders, or how far its position moved. Journaled as the source of the
 * transition it caused.
 */
export type InferenceCause =
  'order_history' | 'trade_history' | 'journaled_fills' | 'nonce_state' | 'venue_open_orders' | 'position';

/**
 * What reconciliation (at start, after a reconnect, `perpbot reconcile`) infers from one read of
 * the venue, each with its cause: the order model applies them like any other event, and the
 * journal records what it makes of them.
 */
export type InferredOrderEvent =
  /**
   * "Closed per order history" (or still resting there): the venue's record of the order; `order`,
   * for one unknown to us that the venue placed for us (a TP/SL's execution while the bot was away).
   */
  | {
      readonly type: 'history_recorded';
      readonly cause: 'order_history';
      readonly status: OrderRecord['status'];
      readonly filledSize: string;
      readonly orderId: string;
      readonly restingOrderId?: bigint | undefined;
      readonly order?: OrderSpec | undefined;
    }
  /** "Filled per trade history": the order's fills journaled so far add up to `fillSum`. */
  | { readonly type: 'fills_counted'; readonly cause: 'trade_history' | 'journaled_fills'; readonly fillSum: string }
  /**
   * "Not executed per nonce state": its signed placement can no longer land and never did (or,
   * its anchor past, no order of its client_order_id is in the order history).
   */
  | { readonly type: 'not_executed'; readonly cause: 'nonce_state' | 'order_history' }
  /**
   * "Resting on the venue": its open orders list the order; `order`, for one unknown to us that a
   * strategy adopts.
   */
  | {
      readonly type: 'found_resting';
      readonly cause: 'venue_open_orders';
      readonly orderId: string;
      readonly restingOrderId?: bigint | undefined;
      readonly order?: OrderSpec | undefined;
    }
  /**
   * An order that left the book unobserved, judged by the position's move: it filled its
   * remainder, filled nothing more, or which of the two cannot be told.
   */
  | {
      readonly type: 'position_judged';
      readonly cause: 'position';
      readonly verdict: 'filled' | 'cancelled' | 'untold';
    };

/**
 * What happened to an order: the order model's input (`applyOrderEvent`). The engine feeds what it
 * does (queued, submitted, the send's answer, a cancel accepted), the feeds what the venue reports
 * (an order record, a fill, a snapshot that no longer lists the order), and reconciliation what it
 * infers from the venue (`InferredOrderEvent`). The published `OrderEvent`s (`orderEvent.ts`) are
 * what the model made of them.
 */
export type OrderModelEvent =
  | InferredOrderEvent
  /** A strategy emitted the placement: the engine owns it from now on, waiting for admission. */
  | { readonly type: 'queued'; readonly order: OrderSpec }
  /** Admitted: about to be signed and sent, with its size and price as checked. */
  | { readonly type: 'submitted'; readonly order: OrderSpec }
  /** A cancel of this process reached the order while it was still queued: it goes, nothing sent. */
  | { readonly type: 'cancelled_while_queued' }
  /** The venue accepted the placement and named the order. */
  | { readonly type: 'accepted'; readonly orderId: string; readonly restingOrderId?: bigint | undefined }
  /** The send ended without the order on the venue: refused, failed, or without a definite answer. */
  | {
      readonly type: 'send_ended';
      readonly state: 'refused' | 'failed' | 'unknown';
      readonly cause?: OrderEndCause | undefined;
    }
  /** A cancel the engine sent was accepted. */
  | { readonly type: 'cancel_accepted' }
  /** The venue's record of the order (its orders channel, open orders or order history). */
  | {
      readonly type: 'venue_reported';
      readonly status: OrderRecord['status'];
      readonly filledSize?: string | undefined;
      readonly restingOrderId?: bigint | undefined;
    }
  /** A snapshot of every open order no longer lists it: it left the book, filled if all of it filled. */
  | { readonly type: 'left_book' }
  /** Fills of the order seen so far (counted once each): their sum. */
  | { readonly type: 'filled_by'; readonly fillSum: string };

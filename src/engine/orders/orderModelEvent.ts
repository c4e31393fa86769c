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
 * What happened to an order: the order model's input (`applyOrderEvent`). The engine feeds what it
 * does (queued, submitted, the send's answer, a cancel accepted), the feeds what the venue reports
 * (an order record, a fill, a snapshot that no longer lists the order), and reconciliation what it
 * infers from the venue's history. The published `OrderEvent`s (`orderEvent.ts`) are what the
 * model made of them.
 */
export type OrderModelEvent =
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

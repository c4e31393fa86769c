import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { TpslOrderRequest } from '../../venue/rest/tpslClient.js';
import type { TpslOrderRecord } from '../../venue/schemas/restTpsl.js';
import { VenueError } from '../../venue/venueError.js';
import { stopTypeOf, type TpslOrder } from '../orders/tpslOrder.js';
import { newTpslOrder } from '../orders/tpslStateMachine.js';
import type { ProtectedMarket } from './protectedMarket.js';
import type { WantedLeg } from './protectionLegs.js';
import type { TpslOrders } from './tpslOrders.js';

/** The venue's TP/SL calls the keeper makes (a `TpslClient` of the account, signed by the session signer). */
export interface TpslVenue {
  place(order: TpslOrderRequest): Promise<{ readonly order_id: string }>;
  cancel(venueId: string): Promise<unknown>;
  /**
   * The account's TP/SL orders, both stop types: every active one (ACCEPTED or TRIGGERED), and of
   * the ended ones those created at or after `sinceMs` (every one when undefined). A bot that runs
   * for days ends thousands; reading them all every pass would grow without bound.
   */
  listAll(sinceMs?: number): Promise<readonly TpslOrderRecord[]>;
}

const STOP_PRICE_OPTION = { mark: 'MARK_PRICE', last: 'LAST_TRADED_PRICE' } as const;
/** How long a cancel sent may take to show in the venue's list before it is sent again. */
const CANCEL_RESEND_MS = 2_000;
/**
 * How long the venue's refusal of a TP/SL placement stands before it is asked again: a refusal
 * may be of that one order (a field, a signature, the budget) or pass by itself, and a process
 * that stopped asking for good would leave its positions unprotected past its own end.
 */
export const ASK_VENUE_AGAIN_MS = 60_000;

/**
 * What the keeper does to one leg on the venue: place it (journaled first, then sent), emulate it
 * once the venue refused TP/SL orders, cancel it, and cancel a stray. Each outcome is an event of
 * the TP/SL order's state machine; an answer that is not definite leaves the decision to the
 * venue's next list (`wantVenueRead`).
 */
export class TpslLegActions {
  private venueRefusal: { readonly reason: string; readonly atMs: number } | undefined;
  /** When each cancel was last sent, by the order's id: one the venue still lists ACCEPTED is sent again. */
  private readonly cancelSentMs = new Map<string, number>();
  private readonly foreignSeen = new Set<string>();
  private seq = 0;

  constructor(
    private readonly o: {
      readonly venue: TpslVenue;
      readonly orders: TpslOrders;
      readonly clock: Clock;
      readonly log: Logger;
      wantVenueRead(): void;
    },
  ) {}

  /** Why the venue refuses TP/SL orders (new legs are emulated), or undefined once it is to be asked again. */
  get refusal(): string | undefined {
    const refused = this.venueRefusal;
    return refused !== undefined && this.o.clock.now() - refused.atMs < ASK_VENUE_AGAIN_MS ? refused.reason : undefined;
  }

  async place(protection: ProtectedMarket, leg: WantedLeg): Promise<TpslOrder> {
    const now = this.o.clock.now();
    const order = this.o.orders.add(
      newTpslOrder({
        id: `tpsl-${now.toString(36)}-${(this.seq++).toString(36)}`,
        strategy: protection.strategy,
        marketId: protection.marketId,
        role: leg.role,
        side: leg.side,
        size: leg.size,
        stopPrice: leg.stopPrice,
        trigger: protection.spec.trigger,
        createdMs: now,
      }),
    );
    const refusal = this.refusal;
    if (refusal !== undefined) return this.emulate(order, refusal);
    try {
      const answer = await this.o.venue.place({
        marketId: order.marketId,
        side: order.side,
        size: order.size,
        stopType: stopTypeOf(order.role),
        stopPrice: order.stopPrice,
        stopPriceOption: STOP_PRICE_OPTION[order.trigger],
      });
      this.logPlaced(order);
      return this.o.orders.apply(order.id, { type: 'placed', venueId: answer.order_id }, this.o.clock.now()) ?? order;
    } catch (error) {
      return this.placeFailed(order, error);
    }
  }

  async cancel(order: TpslOrder, why: string): Promise<void> {
    const atMs = this.o.clock.now();
    if (order.state === 'placing' || order.state === 'emulated' || order.venueId === undefined) {
      this.o.orders.apply(order.id, { type: 'cancel_sent' }, atMs);
      return;
    }
    if (order.state !== 'accepted') return;
    this.o.orders.apply(order.id, { type: 'cancel_sent' }, atMs);
    await this.sendCancel(order.id, order.venueId, why);
  }

  /**
   * Cancels sent that did not land (a failed request, an answer lost): each order of ours still
   * `cancelling` that the venue's list shows ACCEPTED `CANCEL_RESEND_MS` after its cancel was sent
   * gets it again. Without this a failed cancel left the order on the venue, and `cancelling` here, for good.
   */
  async resendCancels(records: readonly TpslOrderRecord[]): Promise<void> {
    const accepted = new Set(records.filter((r) => r.status === 'TPSL_ORDER_STATUS_ACCEPTED').map((r) => r.order_id));
    const now = this.o.clock.now();
    for (const order of this.o.orders.all()) {
      if (order.state !== 'cancelling' || order.venueId === undefined || !accepted.has(order.venueId)) continue;
      if (now - (this.cancelSentMs.get(order.id) ?? 0) < CANCEL_RESEND_MS) continue;
      await this.sendCancel(order.id, order.venueId, 'its cancel did not land');
    }
    for (const id of this.cancelSentMs.keys())
      if (this.o.orders.get(id)?.state !== 'cancelling') this.cancelSentMs.delete(id);
  }

  private async sendCancel(id: string, venueId: string, why: string): Promise<void> {
    this.cancelSentMs.set(id, this.o.clock.now());
    try {
      await this.o.venue.cancel(venueId);
      this.o.log.info({ tpsl: id, venueId, why }, 'TP/SL cancel sent');
    } catch (error) {
      this.o.log.warn({ err: error, tpsl: id, why }, 'TP/SL cancel failed; sent again while the venue lists it');
    }
    this.o.wantVenueRead();
  }

  /** A TP/SL of ours the engine had ended that the venue still holds. */
  async cancelStray(record: TpslOrderRecord): Promise<void> {
    this.o.log.warn(
      { venueId: record.order_id },
      'a TP/SL of ours the engine had ended is still on the venue: cancelling it',
    );
    await this.o.venue
      .cancel(record.order_id)
      .catch((err: unknown) => this.o.log.warn({ err }, 'stray TP/SL cancel failed'));
  }

  /** A TP/SL on the venue this bot did not place: said once, left alone. */
  noteForeign(record: TpslOrderRecord): void {
    if (this.foreignSeen.has(record.order_id)) return;
    this.foreignSeen.add(record.order_id);
    this.o.log.warn(
      { venueId: record.order_id, market: record.market_id, stopType: record.stop_type, size: record.size },
      'a TP/SL on the venue that this bot did not place: left alone',
    );
  }

  private placeFailed(order: TpslOrder, error: unknown): TpslOrder {
    if (!isDefiniteRefusal(error)) {
      // No definite answer: the next read of the list adopts it, or ends it as never placed.
      this.o.wantVenueRead();
      this.o.log.warn(
        { err: error, tpsl: order.id },
        'TP/SL placement without a definite answer; the venue list decides',
      );
      return order;
    }
    const reason = `the venue refused a TP/SL order: ${error.reason}`;
    this.venueRefusal = { reason, atMs: this.o.clock.now() };
    return this.emulate(order, reason);
  }

  private emulate(order: TpslOrder, reason: string): TpslOrder {
    const { id, strategy, marketId, role, stopPrice } = order;
    this.o.log.error(
      { tpsl: id, strategy, market: marketId, role, stopPrice, reason },
      `TP/SL EMULATED: the venue refuses TP/SL orders, so this stop is watched by this process only and does NOT outlive it; the position counts as unprotected (the venue is asked again in ${ASK_VENUE_AGAIN_MS / 1000} s)`,
    );
    return this.o.orders.apply(order.id, { type: 'emulate', reason }, this.o.clock.now()) ?? order;
  }

  private logPlaced(order: TpslOrder): void {
    const { id, strategy, marketId, role, size, stopPrice } = order;
    this.o.log.info({ tpsl: id, strategy, market: marketId, role, size, stopPrice }, 'TP/SL placed');
  }
}

/** A definite refusal (a 4xx other than a rate limit): the venue will not hold this order. */
function isDefiniteRefusal(error: unknown): error is VenueError {
  return error instanceof VenueError && error.httpStatus >= 400 && error.httpStatus < 500 && error.httpStatus !== 429;
}

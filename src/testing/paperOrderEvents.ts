import { Subject, type Observable } from 'rxjs';
import { addDecimals, compareDecimals, negateDecimal } from '../core/decimal.js';
import type { IntentOutcome } from '../engine/intents/intentOutcome.js';
import type { Intent, Side } from '../engine/intents/intents.js';
import type { TrackedOrder } from '../engine/tracking/orderTracker.js';
import type { OrderEvent, OrderEventType } from '../engine/orders/orderEvent.js';

/** An order as the paper exchange reports it. */
export type OrderUpdate = Pick<
  TrackedOrder,
  'intentId' | 'strategy' | 'marketId' | 'side' | 'size' | 'price' | 'state' | 'filledSize' | 'orderId'
>;

interface OrderRecord {
  readonly intentId: string;
  readonly strategy: string;
  readonly marketId: number;
  /** Ends by itself when not filled at once (IOC, FOK, market, close) or at its time (GTT). */
  readonly expires: boolean;
  readonly isMarket: boolean;
  side?: Side;
  size?: string;
  price?: string;
  orderId?: string;
  placed: boolean;
  filledSize: string;
  cancelRequested: boolean;
}

/** Finished intents remembered so that a late report does not start a second life. */
const FINISHED_KEPT = 10_000;

export interface PaperOrderEventsOptions {
  readonly now: () => number;
  /** A closePosition's side and size before the engine sized it: the open position's. */
  readonly position?: (marketId: number) => { readonly side: Side; readonly size: string } | undefined;
}

/**
 * The paper exchange's order events, for the test kit until it runs the real engine (issue 25,
 * part D, removes it with `paperExchange.ts`): turns what the paper exchange reports (the intents,
 * their outcomes, its order changes) into one ordered life per order. The bot's order events come
 * from the engine's order model (`engine.orderEvents$`), not from here.
 */
export class PaperOrderEvents {
  private readonly records = new Map<string, OrderRecord>();
  private readonly finished = new Set<string>();
  private readonly subject = new Subject<OrderEvent>();
  readonly events$: Observable<OrderEvent> = this.subject.asObservable();

  constructor(private readonly options: PaperOrderEventsOptions) {}

  /** An intent a strategy sent (placements start a record; cancels mark their targets). */
  onIntent(intent: Intent): void {
    switch (intent.kind) {
      case 'placeLimit':
        this.start(intent, {
          side: intent.side,
          size: intent.size,
          price: intent.price,
          expires: intent.timeInForce !== 'GTC',
          isMarket: false,
        });
        return;
      case 'placeMarket':
        this.start(intent, { side: intent.side, size: intent.size, expires: true, isMarket: true });
        return;
      case 'closePosition': {
        const position = this.options.position?.(intent.marketId);
        const side: Side | undefined = position === undefined ? undefined : position.side === 'buy' ? 'sell' : 'buy';
        this.start(intent, {
          ...(side === undefined ? {} : { side }),
          ...(position === undefined ? {} : { size: position.size }),
          expires: true,
          isMarket: true,
        });
        return;
      }
      case 'cancel': {
        const target =
          'intentId' in intent.target
            ? this.records.get(intent.target.intentId)
            : this.byOrderId(intent.target.orderId);
        if (target !== undefined) target.cancelRequested = true;
        return;
      }
      case 'cancelAll':
        for (const record of this.records.values())
          if (record.marketId === intent.marketId) record.cancelRequested = true;
        return;
      case 'setLeverage':
      case 'setMarginMode':
      case 'adjustIsolatedMargin':
        // Account settings: no order, no life.
        return;
    }
  }

  /** The runtime is cancelling every open order of a strategy (its on_error policy). */
  cancelRequestedFor(strategy: string): void {
    for (const record of this.records.values()) if (record.strategy === strategy) record.cancelRequested = true;
  }

  onOutcome(outcome: IntentOutcome): void {
    const record = this.records.get(outcome.intentId);
    if (record === undefined) return;
    if (outcome.type === 'accepted') {
      if (outcome.orderId !== undefined) record.orderId ??= outcome.orderId;
      if (!record.placed) this.emit(record, 'placed');
    } else if (outcome.type === 'refused') {
      this.finish(record, 'rejected', {
        code: outcome.rejection.rule,
        reason: outcome.rejection.reason,
        by: 'refused',
      });
    } else if (outcome.type === 'failed') {
      // A placement the venue rejected may still have been reported placed (a fill adopted it): then the fills decide.
      if (!record.placed)
        this.finish(record, 'rejected', { code: outcome.error.code, reason: outcome.error.message, by: 'failed' });
    }
  }

  onOrder(update: OrderUpdate): void {
    if (this.finished.has(update.intentId)) return;
    const record = this.records.get(update.intentId) ?? this.adopt(update);
    if (record === undefined) return;
    record.side = update.side;
    record.size = update.size;
    if (!record.isMarket) record.price ??= update.price;
    if (update.orderId !== undefined) record.orderId ??= update.orderId;
    this.onState(record, update);
  }

  /**
   * An order this run did not send (restored from the journal, or adopted): its life starts here,
   * once the venue has it.
   */
  private adopt(update: OrderUpdate): OrderRecord | undefined {
    if (update.state === 'queued' || update.state === 'pending' || update.state === 'unknown') return undefined;
    const record = this.start(update, {
      side: update.side,
      size: update.size,
      price: update.price,
      expires: false,
      isMarket: false,
    });
    // What filled before is history (counted by the run that saw it): this life starts from here.
    if (update.state !== 'filled') record.filledSize = update.filledSize;
    return record;
  }

  /** The events the order's new state means for its life. */
  private onState(record: OrderRecord, update: OrderUpdate): void {
    switch (update.state) {
      case 'queued':
      case 'pending':
      case 'unknown':
        return;
      case 'open':
      case 'partially_filled':
        if (!record.placed) this.emit(record, 'placed');
        this.onFilledSize(record, update.filledSize);
        return;
      case 'filled':
        if (!record.placed) this.emit(record, 'placed');
        this.finishFilled(record, maxOf(update.filledSize, update.size));
        return;
      case 'cancelled':
        this.onCancelled(record, update.filledSize);
        return;
      case 'rejected':
      case 'failed':
        // The outcome carries the reason; a record the outcome already finished is gone.
        return;
    }
  }

  /** Off the book: fills reported with the cancel count first; an order that ends by itself expired. */
  private onCancelled(record: OrderRecord, filledSize: string): void {
    if (!record.placed) this.emit(record, 'placed');
    this.onFilledSize(record, filledSize);
    if (this.finished.has(record.intentId)) return;
    if (record.expires && !record.cancelRequested) this.finish(record, 'expired');
    else this.finish(record, 'cancelled', { requested: record.cancelRequested });
  }

  /** Orders with a life in progress (tests and diagnostics). */
  get openCount(): number {
    return this.records.size;
  }

  complete(): void {
    this.subject.complete();
  }

  private start(
    source: { readonly intentId: string; readonly strategy: string; readonly marketId: number },
    fields: { side?: Side; size?: string; price?: string; expires: boolean; isMarket: boolean },
  ): OrderRecord {
    const record: OrderRecord = {
      intentId: source.intentId,
      strategy: source.strategy,
      marketId: source.marketId,
      expires: fields.expires,
      isMarket: fields.isMarket,
      placed: false,
      filledSize: '0',
      cancelRequested: false,
    };
    // Added after the literal, in the same order, rather than by conditional spreads: spreads make
    // V8 build a new hidden class on every call, and this runs on every order's way out.
    if (fields.side !== undefined) record.side = fields.side;
    if (fields.size !== undefined) record.size = fields.size;
    if (fields.price !== undefined) record.price = fields.price;
    this.records.set(source.intentId, record);
    return record;
  }

  private onFilledSize(record: OrderRecord, filledSize: string): void {
    if (compareDecimals(filledSize, record.filledSize) <= 0) return;
    const size = record.size ?? filledSize;
    if (compareDecimals(filledSize, size) >= 0) {
      this.finishFilled(record, filledSize);
      return;
    }
    const last = addDecimals(filledSize, negateDecimal(record.filledSize));
    record.filledSize = filledSize;
    this.emit(record, 'partially_filled', { lastFillSize: last });
  }

  private finishFilled(record: OrderRecord, filledSize: string): void {
    const last = addDecimals(filledSize, negateDecimal(record.filledSize));
    record.filledSize = filledSize;
    this.finish(record, 'filled', { lastFillSize: last });
  }

  private finish(record: OrderRecord, type: OrderEventType, extra: Record<string, unknown> = {}): void {
    this.records.delete(record.intentId);
    this.finished.add(record.intentId);
    if (this.finished.size > FINISHED_KEPT) {
      const oldest = this.finished.values().next().value;
      if (oldest !== undefined) this.finished.delete(oldest);
    }
    this.emit(record, type, extra);
  }

  private emit(record: OrderRecord, type: OrderEventType, extra: Record<string, unknown> = {}): void {
    if (type === 'placed') record.placed = true;
    const size = record.size ?? record.filledSize;
    const remaining = remainingOf(size, record.filledSize);
    const event = {
      type,
      intentId: record.intentId,
      strategy: record.strategy,
      marketId: record.marketId,
      side: record.side ?? 'buy',
      size,
      ...(record.price === undefined ? {} : { price: record.price }),
      ...(record.orderId === undefined ? {} : { orderId: record.orderId }),
      filledSize: record.filledSize,
      remainingSize: remaining,
      atMs: this.options.now(),
      ...extra,
    } as OrderEvent;
    this.subject.next(event);
  }

  private byOrderId(orderId: string): OrderRecord | undefined {
    const key = orderId.toLowerCase();
    for (const record of this.records.values()) if (record.orderId?.toLowerCase() === key) return record;
    return undefined;
  }
}

/**
 * size − filled, never below zero. A refused intent may carry a size that is not a decimal at all
 * (that is why it was refused): its event shows the size as sent instead of throwing.
 */
function remainingOf(size: string, filled: string): string {
  try {
    const remaining = addDecimals(size, negateDecimal(filled));
    return compareDecimals(remaining, '0') < 0 ? '0' : remaining;
  } catch {
    return size;
  }
}

function maxOf(a: string, b: string): string {
  return compareDecimals(a, b) >= 0 ? a : b;
}

import { Subject, type Observable } from 'rxjs';
import type { OrderEvent } from '../orders/orderEvent.js';
import type {
  InferenceCause,
  InferredOrderEvent,
  OrderEndCause,
  OrderModelEvent,
  OrderSpec,
} from '../orders/orderModelEvent.js';
import {
  applyOrderEvent,
  inferenceCauseOf,
  type AppliedOrderEvent,
  type RefusedTransition,
} from '../orders/orderStateMachine.js';
import { orderEventsOf } from '../orders/orderEventsOf.js';
import type { FillRecord, OrderRecord, PositionRecord } from '../../venue/schemas/wsFramesPrivate.js';
import type { AccountState } from './accountState.js';
import { memoryFillLedger, type FillLedger, type FillOrigin } from './fillLedger.js';
import { ForeignOrders } from './foreignOrders.js';
import type { MarginMode } from '../intents/intents.js';
import { OrderRegistry } from './orderRegistry.js';
import { PositionBook, type TrackedPosition } from './positionBook.js';
import { RestingOrderCounts } from './restingOrderCounts.js';
import { ReadMarks } from './readMarks.js';
import { SnapshotCloses } from './snapshotCloses.js';
import { AskedCancels, StrategyOrderCounts } from './strategyOrderCounts.js';
import { trackedFill, type FillOwner, type TrackedFill } from './trackedFill.js';
import { isTerminal, type TrackedOrder } from '../orders/trackedOrder.js';
import { adoptedIntent, applyOrderRecord, closeUnlisted, type OrderRecordsTarget } from './venueOrderRecords.js';

export type { OrderState, TrackedOrder } from '../orders/trackedOrder.js';
export type { TrackedPosition } from './positionBook.js';
export { FINISHED_ORDERS_KEPT } from './orderRegistry.js';
export { trackedFill, type TrackedFill } from './trackedFill.js';

/**
 * The engine's one order model (the pipeline's track stage): every order from its intent's arrival
 * (`queued`) to its terminal state, each transition one event on `events$`, moved by the engine's
 * sends and the venue's feeds in whatever order those arrive; also fills, positions and balance.
 * Its parts each keep one thing: `OrderRegistry` (orders by their ids), `ForeignOrders`,
 * `RestingOrderCounts` (the guards'), `PositionBook`; fills are counted once by id (`FillLedger`).
 */
export class OrderTracker {
  private readonly orders = new OrderRegistry();
  private readonly foreign = new ForeignOrders();
  private readonly restingCounts = new RestingOrderCounts();
  private readonly reads = new ReadMarks();
  private readonly positions = new PositionBook(this.reads);
  private fillLedger: FillLedger = memoryFillLedger();
  private readonly orderChanges = new Subject<TrackedOrder>();
  private readonly fillEvents = new Subject<TrackedFill>();
  private readonly eventSubject = new Subject<OrderEvent>();
  /** Per strategy and market: wanted, resting and on-venue counts, read by budgets and quote uptime. */
  readonly orderCounts = new StrategyOrderCounts();
  private readonly cancelAsked = new AskedCancels(this.orderCounts);
  /** Who owns a fill of an order not ours (a TP/SL's execution: see `ownUnknownFills`). */
  private unknownFillOwner: (fill: FillRecord) => FillOwner | undefined = () => undefined;
  private readonly snapshotCloses = new SnapshotCloses(this.reads);
  /** The versions a reconciliation inferred, with the cause (`infer`): the journal's source for them. */
  private readonly inferredCauses = new WeakMap<TrackedOrder, InferenceCause>();
  /** What the venue's order records move (`venueOrderRecords.ts`). */
  private readonly recordsTarget: OrderRecordsTarget = {
    orders: this.orders,
    foreign: this.foreign,
    apply: (intentId, event) => void this.apply(intentId, event),
    placed: (intentId, orderId) => this.placed(intentId, orderId),
  };

  /**
   * Every change of an order that reached the venue (or was sent to it): what the journal keeps.
   * An order that never left the queue (cancelled or refused there) is on `events$` only.
   */
  readonly orders$: Observable<TrackedOrder> = this.orderChanges.asObservable();
  readonly fills$: Observable<TrackedFill> = this.fillEvents.asObservable();
  /** Every transition of every order of this process, in the order they happen: the one order model's events. */
  readonly events$: Observable<OrderEvent> = this.eventSubject.asObservable();

  /** `now`: the events' clock (`atMs`); `onRefused`: told of a change the state machine refused (never written). */
  constructor(
    private readonly now: () => number = Date.now,
    private readonly onRefused: (refused: RefusedTransition, intentId: string) => void = () => undefined,
  ) {}

  /** A strategy emitted a placement: the engine owns it from now on, waiting for admission. */
  queued(order: OrderSpec): void {
    this.apply(order.intentId, { type: 'queued', order });
  }

  /** A placement is about to be signed and sent (its size and price as checked, snapped to the grid). */
  submitted(order: OrderSpec): void {
    this.apply(order.intentId, { type: 'submitted', order });
  }

  /**
   * A cancel of this process asks the order to go. A queued order goes at once, nothing sent:
   * returns true when it was queued (now cancelled), false when a cancel must be sent for it.
   */
  requestCancel(intentId: string): boolean {
    const order = this.orders.get(intentId);
    if (order === undefined || isTerminal(order.state)) return false;
    this.cancelAsked.add(intentId, order);
    if (order.state !== 'queued') return false;
    this.apply(intentId, { type: 'cancelled_while_queued' });
    return true;
  }

  /** A cancel asked for the order was never sent (its hold said no): the order is not on its way out. */
  cancelDropped(orderId: string): void {
    const intentId = this.orders.intentOfOrderId(orderId);
    if (intentId !== undefined) this.cancelAsked.delete(intentId, this.orders.get(intentId));
  }

  /** Whether a cancel of this process asked the (still live) order to go. */
  cancelRequested(intentId: string): boolean {
    return this.cancelAsked.has(intentId);
  }

  /** The venue accepted the placement and named the order. */
  placed(intentId: string, orderId: string): void {
    if (this.orders.get(intentId) === undefined) return;
    if (this.apply(intentId, { type: 'accepted', orderId }).kind === 'moved') this.snapshotCloses.accept(intentId);
    this.foreign.forget(orderId.toLowerCase());
  }

  /**
   * The placement did not happen (refused by our checks, failed at the venue) or its fate is not known yet. An
   * order the venue already reported (a fill adopted it) is left to the venue's reports.
   */
  settle(intentId: string, state: 'refused' | 'failed' | 'unknown', cause?: OrderEndCause): void {
    this.apply(intentId, { type: 'send_ended', state, cause });
  }

  /** A cancel the engine sent was accepted. */
  cancelled(orderId: string): void {
    const intentId = this.orders.intentOfOrderId(orderId);
    if (intentId === undefined) {
      this.foreign.forget(orderId.toLowerCase());
      return;
    }
    const order = this.orders.get(intentId);
    if (order !== undefined && !isTerminal(order.state)) this.cancelAsked.add(intentId, order);
    this.apply(intentId, { type: 'cancel_accepted' });
  }

  /**
   * What a reconciliation inferred of an order this tracker holds, applied like any other event
   * and published with its cause (`causeOf`); undefined when it holds no such order (the journal's
   * record of it takes the event instead).
   */
  infer(intentId: string, event: InferredOrderEvent): AppliedOrderEvent | undefined {
    return this.orders.get(intentId) === undefined ? undefined : this.apply(intentId, event);
  }

  /** Why a reconciliation moved an order to this version (see `infer`); undefined for any other change. */
  causeOf(order: TrackedOrder): InferenceCause | undefined {
    return this.inferredCauses.get(order);
  }

  /** Orders feed (WebSocket or REST); a snapshot read from `readFrom` (`readMark`) lists every open order. */
  onOrderRecords(records: readonly OrderRecord[], snapshot: boolean, readFrom?: number): void {
    const listed = new Set<string>();
    for (const record of records) listed.add(applyOrderRecord(this.recordsTarget, record));
    if (snapshot) closeUnlisted(this.recordsTarget, listed, this.snapshotCloses.keepsOpen(readFrom));
  }

  /** Taken before the venue is read, and given with what the read applies (`ReadMarks`). */
  readMark(): number {
    return this.reads.now();
  }

  /** See `SnapshotCloses`: from a lost connection until the reconciliation that reads the order history. */
  holdSnapshotCloses(held: boolean): void {
    this.snapshotCloses.held = held;
  }

  /**
   * Where fills are counted from now on (the journal's, so that a fill counted by a previous run or
   * journaled from the venue's history is not counted again). Set it before any fill arrives.
   */
  useFillLedger(ledger: FillLedger): void {
    this.fillLedger = ledger;
  }

  /**
   * A fill of this account, from the fills channel or (`origin` history) the venue's trade history.
   * Returns it with its intent, or undefined when its id was counted before, whichever way it came.
   */
  onFill(fill: FillRecord, origin: FillOrigin = 'venue'): TrackedFill | undefined {
    const intentId =
      this.orders.intentOfOrderId(fill.order_id) ??
      adoptedIntent(this.recordsTarget, fill.client_order_id, fill.order_id);
    const order = intentId === undefined ? undefined : this.orders.get(intentId);
    const tracked = trackedFill(fill, order ?? this.unknownFillOwner(fill));
    // The one decision: counted before (by this run, another run, or from history) is not counted again.
    if (!this.fillLedger.record(tracked, origin)) return undefined;
    if (order !== undefined && !isTerminal(order.state))
      this.apply(order.intentId, { type: 'filled_by', fillSum: this.orders.addFill(order.intentId, fill.size) });
    this.fillEvents.next(tracked);
    return tracked;
  }

  /** Asked of each fill not of our orders: a TP/SL execution (the OperatorHub sends it) is its strategy's. */
  ownUnknownFills(owner: (fill: FillRecord) => FillOwner | undefined): void {
    this.unknownFillOwner = owner;
  }

  onPositions(records: readonly PositionRecord[], readFrom?: number): void {
    this.positions.onPositions(records, readFrom);
  }

  setMarginMode(marketId: number, mode: MarginMode): void {
    this.positions.setMarginMode(marketId, mode);
  }

  onBalance(balance: string, readFrom?: number): void {
    this.positions.onBalance(balance, readFrom);
  }

  order(intentId: string): TrackedOrder | undefined {
    return this.orders.get(intentId);
  }

  orderByOrderId(orderId: string): TrackedOrder | undefined {
    const intentId = this.orders.intentOfOrderId(orderId);
    return intentId === undefined ? undefined : this.orders.get(intentId);
  }

  /** The resting id the cancel hash needs, from our records or the venue's. */
  restingIdOf(orderId: string): bigint | undefined {
    return this.orderByOrderId(orderId)?.restingOrderId ?? this.foreign.restingIdOf(orderId.toLowerCase());
  }

  /** Orders not finished: `queued`, in flight (`submitted`), `unknown`, or resting; each with its `state`. */
  openOrders(filter: { strategy?: string; marketId?: number } = {}): TrackedOrder[] {
    const out: TrackedOrder[] = [];
    for (const o of this.orders.open())
      if ((filter.strategy ?? o.strategy) === o.strategy && (filter.marketId ?? o.marketId) === o.marketId) out.push(o);
    return out;
  }

  /** Open orders on the venue that this process did not place. */
  foreignOrders(): { orderId: string; marketId: number }[] {
    return this.foreign.list();
  }

  position(marketId: number): TrackedPosition | undefined {
    return this.positions.position(marketId);
  }

  allPositions(): TrackedPosition[] {
    return this.positions.all();
  }

  currentBalance(): string | undefined {
    return this.positions.balance;
  }

  /** The plain state the pre-trade checks and guards judge. */
  accountState(): AccountState {
    return {
      positions: this.positions.positionsNow(),
      marginModes: this.positions.marginModesNow(),
      openOrders: this.restingCounts.withForeign(this.foreign),
    };
  }

  /**
   * Every change of an order goes through here: the event applied by the order state machine
   * (a move its table refuses is reported and never written), the new version stored and
   * indexed, counted, and published when it shows: its events first, then (once it was sent) the
   * order itself.
   */
  private apply(intentId: string, event: OrderModelEvent): AppliedOrderEvent {
    const before = this.orders.get(intentId);
    const applied = applyOrderEvent(before, event);
    if (applied.kind === 'refused') this.onRefused(applied.refusal, intentId);
    if (applied.kind !== 'moved') return applied;
    const order = applied.order;
    this.orders.put(order);
    this.restingCounts.onChange(before, order);
    this.orderCounts.onChange(before, order, this.cancelAsked.has(intentId));
    if (before !== undefined && before.state === order.state && before.filledSize === order.filledSize) return applied;
    const inferred = inferenceCauseOf(event);
    if (inferred !== undefined) this.inferredCauses.set(order, inferred);
    const cancelRequested = this.cancelAsked.has(intentId);
    if (isTerminal(order.state)) {
      this.snapshotCloses.ended(intentId);
      this.cancelAsked.delete(intentId, undefined);
    }
    if (this.eventSubject.observed) {
      const cause = event.type === 'send_ended' ? event.cause : undefined;
      const context = { atMs: this.now(), cancelRequested, cause };
      for (const published of orderEventsOf(before, order, context)) this.eventSubject.next(published);
    }
    if (order.state !== 'queued' && before?.state !== 'queued') this.orderChanges.next(order);
    else if (order.state === 'submitted') this.orderChanges.next(order);
    return applied;
  }
}

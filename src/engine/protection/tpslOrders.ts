import { Subject, type Observable } from 'rxjs';
import type { TpslOrder, TpslRole } from '../orders/tpslOrder.js';
import { isLiveTpsl, isTerminalTpsl } from '../orders/tpslState.js';
import { applyTpslEvent, type RefusedTpslMove, type TpslEvent } from '../orders/tpslStateMachine.js';

/** Where TP/SL orders are kept durably (the journal's `tpsl_orders`): every version, written before it is acted on. */
export interface TpslStore {
  write(order: TpslOrder): void;
}

/** Ended orders are kept this long (a late fill of an execution is still attributed), then forgotten. */
const ENDED_KEPT_MS = 3_600_000;

/**
 * The engine's TP/SL orders in memory, by the engine's id and by the venue's. Every change goes
 * through `applyTpslEvent` (a move its table refuses is reported, never written), then to the
 * store, then to `changes$`.
 */
export class TpslOrders {
  private readonly byId = new Map<string, TpslOrder>();
  private readonly idOfVenueId = new Map<string, string>();
  private readonly changeSubject = new Subject<TpslOrder>();
  readonly changes$: Observable<TpslOrder> = this.changeSubject.asObservable();

  constructor(
    private readonly store: TpslStore,
    private readonly onRefused: (refusal: RefusedTpslMove, order: TpslOrder) => void,
  ) {}

  /** Orders a previous run left live (from the journal): known again, not written again. */
  restore(orders: readonly TpslOrder[]): void {
    for (const order of orders) this.index(order);
  }

  /** A new order, journaled before anything is sent for it. */
  add(order: TpslOrder): TpslOrder {
    this.index(order);
    this.store.write(order);
    this.changeSubject.next(order);
    return order;
  }

  /** Applies the event; returns the order as it is after it (unchanged when the table refused or nothing moved). */
  apply(id: string, event: TpslEvent, atMs: number): TpslOrder | undefined {
    const before = this.byId.get(id);
    if (before === undefined) return undefined;
    const applied = applyTpslEvent(before, event, atMs);
    if (applied.kind === 'refused') this.onRefused(applied.refusal, before);
    if (applied.kind !== 'moved') return before;
    this.index(applied.order);
    this.store.write(applied.order);
    this.changeSubject.next(applied.order);
    return applied.order;
  }

  get(id: string): TpslOrder | undefined {
    return this.byId.get(id);
  }

  byVenueId(venueId: string): TpslOrder | undefined {
    const id = this.idOfVenueId.get(venueId);
    return id === undefined ? undefined : this.byId.get(id);
  }

  /** Every order known, live ones and those ended within the last hour. */
  all(): TpslOrder[] {
    return [...this.byId.values()];
  }

  /** The live orders of a strategy's market (of one role when given). */
  live(strategy: string, marketId: number, role?: TpslRole): TpslOrder[] {
    return this.all().filter(
      (o) =>
        o.strategy === strategy &&
        o.marketId === marketId &&
        (role === undefined || o.role === role) &&
        isLiveTpsl(o.state),
    );
  }

  /** Forgets ended orders older than an hour. */
  prune(nowMs: number): void {
    for (const order of this.byId.values()) {
      if (!isTerminalTpsl(order.state) || nowMs - order.updatedMs < ENDED_KEPT_MS) continue;
      this.byId.delete(order.id);
      if (order.venueId !== undefined) this.idOfVenueId.delete(order.venueId);
    }
  }

  private index(order: TpslOrder): void {
    this.byId.set(order.id, order);
    if (order.venueId !== undefined) this.idOfVenueId.set(order.venueId, order.id);
  }
}

import type { Observable, Subscription } from 'rxjs';
import type { Clock } from '../../core/clock.js';
import { addDecimals, negateDecimal } from '../../core/decimal.js';
import type { TpslOrder } from '../../engine/orders/tpslOrder.js';
import { isTerminalTpsl } from '../../engine/orders/tpslState.js';
import type { TrackedFill } from '../../engine/tracking/trackedFill.js';
import type { ReplayStop, ReplayStopFill, ReplayStops } from './replayReport.js';

/** What the stops tape reads: the keeper's order versions, the engine's fills and the ledger. */
export interface ReplayStopsSource {
  readonly changes$: Observable<TpslOrder>;
  readonly fills$: Observable<TrackedFill>;
  /** The strategy's realised PnL now (the ledger's, current when a fill is heard). */
  realisedPnl(strategy: string): string;
}

interface Kept {
  order: TpslOrder;
  placedT: number | null;
  endT: number | null;
  readonly fills: ReplayStopFill[];
}

/**
 * The replay's record of the TP/SL orders of the protected strategies: every version the keeper's
 * order model writes (placed, fired, executed, cancelled), and each fill attributed to one of them
 * (its intent is the TP/SL's id, its strategy the protected one), with what the fill changed the
 * strategy's realised PnL by. The numbers are the engine's; the tape only records them.
 */
export class ReplayStopsTape {
  private readonly kept = new Map<string, Kept>();
  private readonly realised = new Map<string, string>();
  private readonly subscriptions: Subscription[];

  constructor(
    source: ReplayStopsSource,
    private readonly strategies: ReadonlySet<string>,
    clock: Clock,
  ) {
    this.subscriptions = [
      source.changes$.subscribe((order) => this.onOrder(order)),
      source.fills$.subscribe((fill) => this.onFill(fill, source.realisedPnl.bind(source), clock.now())),
    ];
  }

  /** Stops recording (after the shutdown: its cancels are part of the record). */
  close(): void {
    for (const s of this.subscriptions) s.unsubscribe();
  }

  /** The strategy's stops section of the report. */
  of(strategy: string): ReplayStops {
    const orders = [...this.kept.values()].filter((k) => k.order.strategy === strategy).map(stopOf);
    const sum = (pick: (s: ReplayStop) => string): string => orders.reduce((a, s) => addDecimals(a, pick(s)), '0');
    const count = (test: (s: ReplayStop) => boolean): number => orders.filter(test).length;
    return {
      placed: count((s) => s.placedT !== null),
      triggered: count((s) => s.state === 'executed' || s.state === 'triggered'),
      executed: count((s) => s.state === 'executed'),
      cancelled: count((s) => s.state === 'cancelled'),
      refused: count((s) => s.state === 'refused'),
      executedSize: sum((s) => s.filledSize),
      realisedPnl: sum((s) => s.realisedPnl),
      fees: sum((s) => s.fees),
      orders,
    };
  }

  private onOrder(order: TpslOrder): void {
    if (!this.strategies.has(order.strategy)) return;
    const kept = this.kept.get(order.id) ?? { order, placedT: null, endT: null, fills: [] };
    kept.order = order;
    if (kept.placedT === null && order.state === 'accepted') kept.placedT = order.updatedMs;
    if (kept.endT === null && isTerminalTpsl(order.state)) kept.endT = order.updatedMs;
    this.kept.set(order.id, kept);
  }

  private onFill(fill: TrackedFill, realisedPnl: (strategy: string) => string, t: number): void {
    const { strategy } = fill;
    if (strategy === undefined || !this.strategies.has(strategy)) return;
    // Every fill of the strategy moves the mark to judge the next by: its realised PnL before it.
    const after = realisedPnl(strategy);
    const change = addDecimals(after, negateDecimal(this.realised.get(strategy) ?? '0'));
    this.realised.set(strategy, after);
    const kept = fill.intentId === undefined ? undefined : this.kept.get(fill.intentId);
    if (kept?.order.strategy !== strategy) return;
    kept.fills.push({ t, price: fill.price, size: fill.size, fee: fill.fee, realisedPnl: change });
  }
}

function stopOf(k: Kept): ReplayStop {
  const { order, fills } = k;
  const filled = fills.reduce((a, f) => addDecimals(a, f.size), '0');
  return {
    id: order.id,
    venueId: order.venueId ?? null,
    marketId: order.marketId,
    role: order.role,
    side: order.side === 'BUY' ? 'buy' : 'sell',
    size: order.size,
    stopPrice: order.stopPrice,
    trigger: order.trigger,
    state: order.state,
    placedT: k.placedT,
    endT: k.endT,
    triggeredPrice: order.triggeredPrice ?? null,
    // What the strategy was booked: the fills attributed to the execution.
    filledSize: filled,
    realisedPnl: fills.reduce((a, f) => addDecimals(a, f.realisedPnl), '0'),
    fees: fills.reduce((a, f) => addDecimals(a, f.fee), '0'),
    fills,
    reason: order.reason ?? null,
  };
}

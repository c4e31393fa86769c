import type { Clock } from '../core/clock.js';
import type { Intent } from './intents.js';

/**
 * What the guard gate admitted and has not heard back about. Intents fired together are all
 * judged before any of them reaches the order tracker's in-flight count (the executor begins the
 * action a few steps after the admission), so without this a burst of placements sails past
 * max open orders, and a margin switch past an order admitted just before it. Leverage updates
 * also go one at a time: the venue allows one per second and measures between arrivals, so the
 * next waits for the previous answer (see `checkLeverageRate`).
 */
export interface GuardTicket {
  /** The action now counts in the tracker's in-flight set (`beginAction`): stop counting it here. */
  begun(): void;
  /** The action settled (answered, failed, given up) or will not be sent. Later calls do nothing. */
  settled(): void;
}

export class AdmittedActions {
  /** Admitted and not yet begun, per market. */
  private readonly waiting = new Map<number, number>();
  private leverageOpen = false;
  private leverageSettledMs: number | undefined;

  constructor(private readonly clock: Clock) {}

  /** A leverage update was admitted and has not settled. */
  get leverageInFlight(): boolean {
    return this.leverageOpen;
  }

  /** When the last leverage update settled (its answer arrived, or it was given up). */
  get lastLeverageUpdateMs(): number | undefined {
    return this.leverageSettledMs;
  }

  /** The tracker's in-flight counts plus what was admitted and not begun (the same map when none). */
  inFlight(tracked: ReadonlyMap<number, number>): ReadonlyMap<number, number> {
    if (this.waiting.size === 0) return tracked;
    const merged = new Map(tracked);
    for (const [marketId, n] of this.waiting) merged.set(marketId, (merged.get(marketId) ?? 0) + n);
    return merged;
  }

  admit(intent: Intent): GuardTicket {
    const { marketId } = intent;
    const leverage = intent.kind === 'setLeverage';
    if (leverage) this.leverageOpen = true;
    this.count(marketId, 1);
    let waiting = true;
    let open = true;
    const begun = (): void => {
      if (!waiting) return;
      waiting = false;
      this.count(marketId, -1);
    };
    return {
      begun,
      settled: () => {
        begun();
        if (!open) return;
        open = false;
        if (leverage) {
          this.leverageOpen = false;
          this.leverageSettledMs = this.clock.now();
        }
      },
    };
  }

  private count(marketId: number, delta: number): void {
    const n = (this.waiting.get(marketId) ?? 0) + delta;
    if (n <= 0) this.waiting.delete(marketId);
    else this.waiting.set(marketId, n);
  }
}

import { Subscription } from 'rxjs';
import type { Clock } from '../../core/clock.js';
import type { TradingConditions, TradingState } from './tradingConditions.js';

/**
 * Calls `onExceeded` once per degraded period that lasts longer than `maxOutageMs` (0: never):
 * a feed that stays down for minutes is no longer a passing fault. Also keeps the period
 * statistics the runtime reports (count, longest).
 */
export class OutageWatch {
  private readonly subscription = new Subscription();
  private period: { readonly timer: AbortController; readonly startedMs: number } | undefined;
  private periods = 0;
  private longestMs = 0;

  constructor(
    private readonly conditions: TradingConditions,
    private readonly clock: Clock,
    private readonly maxOutageMs: number,
    private readonly onExceeded: (state: TradingState) => void,
  ) {
    this.subscription.add(conditions.state$.subscribe((state) => this.onState(state)));
  }

  /** Degraded periods so far, and the longest one that ended (ms). */
  get stats(): { readonly periods: number; readonly longestMs: number } {
    return { periods: this.periods, longestMs: this.longestMs };
  }

  dispose(): void {
    this.period?.timer.abort();
    this.subscription.unsubscribe();
  }

  private onState(state: TradingState): void {
    if (state.mode === 'degraded' || state.degraded === true) {
      if (this.period !== undefined) return;
      this.periods++;
      const timer = new AbortController();
      this.period = { timer, startedMs: state.sinceMs };
      if (this.maxOutageMs > 0) {
        this.clock.sleep(this.maxOutageMs, timer.signal).then(
          () => this.onExceeded(this.conditions.state),
          () => undefined,
        );
      }
      return;
    }
    if (this.period === undefined) return;
    this.period.timer.abort();
    this.longestMs = Math.max(this.longestMs, this.clock.now() - this.period.startedMs);
    this.period = undefined;
  }
}

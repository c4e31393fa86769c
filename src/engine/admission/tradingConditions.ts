import { BehaviorSubject, distinctUntilChanged, type Observable } from 'rxjs';
import type { Clock } from '../../core/clock.js';
import type { DegradedConfig } from '../config/engineConfig.js';
import { ALLOW, refused, type GuardVerdict } from '../guards/guardState.js';
import type { Intent } from '../intents/intents.js';
import { refusal } from '../intents/refusal.js';

/**
 * Whether the engine may trade, as strategies and the admission gate see it:
 * - `trading`: the private feeds are up and every reconciliation after the last reconnect is done;
 * - `degraded`: the feeds are down, or a reconciliation is due, running or failed: the engine
 *   does not know its orders and fills, so it opens nothing (FEED_DOWN) and lets through what
 *   only reduces risk; it resumes by itself once the feeds are back and reconciled;
 * - `halted`: the kill switch is tripped (by hand, over the control server, or on the loss limit):
 *   only cancels and closes go, until it is reset by hand; it outranks `degraded`, which lifts by
 *   itself while a halt does not;
 * - `stopped`: a definite condition (see `stop`), for good; the kill switch, tripped with it,
 *   decides what still goes.
 */
export type TradingMode = 'trading' | 'degraded' | 'halted' | 'stopped';

export interface TradingState {
  readonly mode: TradingMode;
  /** Each condition that keeps the engine from trading, for logs and strategies. */
  readonly reasons: readonly string[];
  /** Engine clock, when this mode began. */
  readonly sinceMs: number;
  /** A reconciliation is running: intents wait for it rather than being refused. */
  readonly reconciling: boolean;
  /**
   * The feeds or the journal are down, or a reconciliation is not done, whatever the mode shows
   * (a halt outranks it): the outage watch times this. Absent: as `mode === 'degraded'`.
   */
  readonly degraded?: boolean;
}

/** Whether the feeds, the journal or a reconciliation hold the engine back, whatever the mode shows. */
export function isDegraded(state: TradingState): boolean {
  return state.degraded ?? state.mode === 'degraded';
}

type ReconcilerState =
  | { readonly phase: 'done' | 'due' | 'running' }
  | { readonly phase: 'failed'; readonly reason: string; readonly hints: readonly string[] };

const REASON_HINT = 'the bot resumes by itself once the private feeds are back and reconciled';

/**
 * Works out the trading mode from the feed's state, the reconcilers' phases and a definite stop,
 * publishes it, and gives the admission gate its verdict for each intent.
 */
export class TradingConditions {
  private feedDownReason: string | undefined;
  private journalDownReason: string | undefined;
  private stoppedReason: string | undefined;
  private haltedReason: string | undefined;
  private readonly reconcilers = new Map<string, ReconcilerState>();
  /**
   * The reconcilers run for frames lost while the feeds stayed up: intents wait for them, but the
   * engine is not degraded unless one fails (a feed loss ends this).
   */
  private quietRound = false;
  private readonly subject: BehaviorSubject<TradingState>;
  readonly state$: Observable<TradingState>;

  constructor(private readonly clock: Clock) {
    this.subject = new BehaviorSubject<TradingState>({
      mode: 'trading',
      reasons: [],
      sinceMs: clock.now(),
      reconciling: false,
    });
    this.state$ = this.subject.pipe(
      distinctUntilChanged(
        (a, b) =>
          a.mode === b.mode &&
          a.reconciling === b.reconciling &&
          a.degraded === b.degraded &&
          sameReasons(a.reasons, b.reasons),
      ),
    );
  }

  get state(): TradingState {
    return this.subject.value;
  }

  /** A reconciler that must succeed after every reconnect before trading resumes. */
  registerReconciler(name: string): void {
    if (!this.reconcilers.has(name)) this.reconcilers.set(name, { phase: 'done' });
  }

  /** The private feeds are down (connection lost, authentication pending or failing). */
  feedDown(reason: string): void {
    this.feedDownReason = reason;
    this.quietRound = false;
    this.publish();
  }

  /** The private feeds are back: whatever happened meanwhile must be reconciled first. */
  feedUp(): void {
    if (this.feedDownReason === undefined) return;
    this.feedDownReason = undefined;
    for (const name of this.reconcilers.keys()) this.reconcilers.set(name, { phase: 'due' });
    this.publish();
  }

  /**
   * The journal cannot be written (disk full, I/O error, file removed): opening stops at once,
   * while cancels and closes still go, their records kept until the journal takes them again.
   */
  journalDown(reason: string): void {
    this.journalDownReason = reason;
    this.publish();
  }

  /** The journal takes writes again (what was kept meanwhile is written). */
  journalUp(): void {
    if (this.journalDownReason === undefined) return;
    this.journalDownReason = undefined;
    this.publish();
  }

  /**
   * A round of the reconcilers begins: after a reconnect, or (`quiet`) after frames were lost on a
   * connection that stayed up, when the engine trading on meanwhile is no outage.
   */
  reconcileRound(o: { readonly quiet: boolean }): void {
    // Frames lost while the round after a reconnect still runs (or failed): the new round takes
    // over that round's window, so it is still the outage's and stays loud until it succeeds.
    const outageUnfinished = !this.quietRound && [...this.reconcilers.values()].some((r) => r.phase !== 'done');
    this.quietRound = o.quiet && this.feedDownReason === undefined && !outageUnfinished;
  }

  reconcileStarted(name: string): void {
    this.reconcilers.set(name, { phase: 'running' });
    this.publish();
  }

  reconcileSucceeded(name: string): void {
    this.reconcilers.set(name, { phase: 'done' });
    this.publish();
  }

  /** `reason` is shown as it is (say what failed); `hints` say what the bot does next. */
  reconcileFailed(name: string, reason: string, hints: readonly string[] = []): void {
    this.reconcilers.set(name, { phase: 'failed', reason, hints });
    this.publish();
  }

  /** A definite condition, for good (the caller trips the kill switch with it). */
  stop(reason: string): void {
    this.stoppedReason ??= reason;
    this.publish();
  }

  /** The kill switch tripped: `halted` until `resume` (its reset). */
  halt(reason: string): void {
    this.haltedReason = reason;
    this.publish();
  }

  /** The kill switch was reset: trading again, unless something else still holds it. */
  resume(): void {
    if (this.haltedReason === undefined) return;
    this.haltedReason = undefined;
    this.publish();
  }

  /**
   * The conditions' word on an intent, before the risk guards (only cancels and reduce-only orders
   * pass while degraded). A halt is the kill switch's to judge: it refuses what opens risk with its
   * own rule and reason.
   */
  verdict(intent: Intent, config: DegradedConfig): GuardVerdict {
    const state = this.subject.value;
    // Every definite stop trips the kill switch, which refuses what opens risk and lets cancels
    // and closes through (the shutdown's cancel-all among them).
    if (state.mode === 'stopped') return ALLOW;
    if (state.reconciling)
      return { kind: 'wait', reason: 'a reconciliation with the venue is running', retryAfterMs: 50 };
    if (!this.degraded() || reducesRisk(intent, config)) return ALLOW;
    if (this.journalDownReason !== undefined)
      return refused(
        refusal(
          'journal_down',
          intent.kind,
          `trading paused (JOURNAL_DOWN): ${state.reasons.join('; ')}`,
          'free space or fix the journal file; opening resumes by itself once the journal takes writes again',
        ),
      );
    const hints = [...this.reconcilers.values()].flatMap((r) => (r.phase === 'failed' ? r.hints : []));
    return refused(
      refusal(
        'feed_down',
        intent.kind,
        `trading paused (FEED_DOWN): ${state.reasons.join('; ')}`,
        ...(hints.length > 0 ? hints : [REASON_HINT]),
      ),
    );
  }

  /** The feeds or the journal are down, or a reconciliation is not done. */
  private degraded(): boolean {
    if (this.feedDownReason !== undefined || this.journalDownReason !== undefined) return true;
    for (const r of this.reconcilers.values())
      if (r.phase === 'failed' || (r.phase !== 'done' && !this.quietRound)) return true;
    return false;
  }

  private publish(): void {
    const reasons: string[] = [];
    if (this.stoppedReason !== undefined) reasons.push(this.stoppedReason);
    if (this.haltedReason !== undefined) reasons.push(`kill switch tripped (${this.haltedReason})`);
    if (this.feedDownReason !== undefined) reasons.push(`private feeds down (${this.feedDownReason})`);
    if (this.journalDownReason !== undefined) reasons.push(`journal unwritable (${this.journalDownReason})`);
    let reconciling = false;
    for (const [name, r] of this.reconcilers) {
      if (r.phase === 'running') reconciling = true;
      if ((r.phase === 'due' || r.phase === 'running') && !this.quietRound)
        reasons.push(`${name} reconciliation after the reconnect not done yet`);
      if (r.phase === 'failed') reasons.push(r.reason);
    }
    const mode: TradingMode =
      this.stoppedReason !== undefined
        ? 'stopped'
        : this.haltedReason !== undefined
          ? 'halted'
          : reasons.length > 0
            ? 'degraded'
            : 'trading';
    const before = this.subject.value;
    const sinceMs = before.mode === mode ? before.sinceMs : this.clock.now();
    this.subject.next({ mode, reasons, sinceMs, reconciling, degraded: this.degraded() });
  }
}

/** Cancels and reduce-only orders only shrink exposure, so a blind engine may still send them. */
function reducesRisk(intent: Intent, config: DegradedConfig): boolean {
  switch (intent.kind) {
    case 'cancel':
    case 'cancelAll':
      return config.allowCancels;
    case 'closePosition':
      return config.allowReduceOnly;
    case 'placeLimit':
    case 'placeMarket':
      return config.allowReduceOnly && intent.reduceOnly;
    case 'setLeverage':
    case 'setMarginMode':
    case 'adjustIsolatedMargin':
    case 'replace':
    case 'quote':
    case 'bracket':
      return false;
    case 'protect':
      // It places nothing itself: the keeper's TP/SL orders only ever close the position.
      return true;
  }
}

function sameReasons(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((r, i) => r === b[i]);
}

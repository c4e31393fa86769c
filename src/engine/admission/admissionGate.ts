import type { AccountState } from '../tracking/accountState.js';
import { fullBucket, recordAction, type TokenBucketState } from '../guards/actionRateLimit.js';
import { evaluateGuards } from '../guards/evaluateGuards.js';
import type { GuardState, GuardVerdict } from '../guards/guardState.js';
import type { KillSwitchState, PnlSnapshot } from '../guards/killSwitch.js';
import type { Intent } from '../intents/intents.js';
import { refusal, type Refusal } from '../intents/refusal.js';
import { inFlightFilterExcluding } from './inFlightActions.js';
import { detach } from '../../core/detach.js';
import type { Admission, AdmissionScope } from './admissionScope.js';
import { ScopeKillSwitch } from './scopeKillSwitch.js';

export type { Admission, AdmissionScope } from './admissionScope.js';

/** One decision: an answer, or how long to wait before asking again and why. */
type Step =
  | { readonly answer: Admission }
  | { readonly waitMs: number; readonly reason: string }
  | { readonly closeFirst: number; readonly reason: string };

interface Queued {
  readonly intent: Intent;
  readonly sinceMs: number;
  readonly done: (answer: Admission) => void;
}

/**
 * The one admission gate, instantiated per scope. Builds a fresh `GuardState` for every decision,
 * turns "wait" into waiting (bounded by `maxWaitMs`) and "close_first" into a close followed by
 * waiting until flat, and fails closed: a check that throws refuses the intent with the error.
 * An admitted intent counts as in flight (`InFlightActions`) until it settles.
 */
export class AdmissionGate {
  private bucket: TokenBucketState;
  private readonly ownMarks = new Map<number, string>();
  private readonly lifetime = new AbortController();
  /** Intents waiting their turn in arrival order (`enqueue`), the head first. */
  private readonly queue: Queued[] = [];
  private pumping = false;

  private readonly kill: ScopeKillSwitch;

  constructor(private readonly scope: AdmissionScope) {
    this.bucket = fullBucket(scope.config, scope.clock.now());
    this.kill = new ScopeKillSwitch(scope, this.lifetime.signal);
  }

  setMark(marketId: number, price: string): void {
    this.ownMarks.set(marketId, price);
  }

  get killSwitch(): KillSwitchState {
    return this.kill.state;
  }

  trip(reason: string): void {
    this.kill.trip(reason);
  }

  reset(): void {
    this.kill.reset();
  }

  /** See `ScopeKillSwitch.watchPnl`: a loss past the limit trips the switch once it is confirmed. */
  watchPnl(pnl: PnlSnapshot): void {
    this.kill.watchPnl(pnl);
  }

  /** Stops pending timers (a loss awaiting confirmation). */
  dispose(): void {
    this.lifetime.abort();
  }

  /**
   * A ticket = proceed: the action is recorded against the rate limits and counts as in flight
   * until settled. Intents are judged side by side, each waiting on its own. `current` is the
   * account state read in the same synchronous step (the executor's, for the pre-trade checks):
   * the first decision uses it instead of reading again.
   */
  async admit(intent: Intent, signal?: AbortSignal, current?: AccountState): Promise<Admission> {
    const { clock } = this.scope;
    const started = clock.now();
    let closed = false;
    let account = current;
    for (;;) {
      const step = this.step(intent, started, account);
      if ('answer' in step) return step.answer;
      if ('closeFirst' in step) {
        if (closed) {
          await clock.sleep(50, signal);
        } else {
          closed = true;
          if (this.scope.closePosition === undefined || !(await this.scope.closePosition(intent))) {
            return refusal(
              'margin_mode_open_position',
              step.closeFirst,
              'the position could not be closed before switching margin mode',
            );
          }
        }
      } else {
        await clock.sleep(step.waitMs, signal);
      }
      account = undefined;
    }
  }

  /**
   * `admit`'s first decision, when it is final: the ticket (recorded against the rate limits, in
   * flight) or the refusal; undefined, with no effect, when the intent would wait or close a
   * position first (then `admit` waits for it). For the executor's path without a microtask hop.
   */
  admitNow(intent: Intent, current?: AccountState): Admission | undefined {
    const step = this.step(intent, this.scope.clock.now(), current);
    return 'answer' in step ? step.answer : undefined;
  }

  /**
   * Judges intents one at a time in arrival order (a strategy's queue): one that must wait holds
   * back those behind it. Decides at once, synchronously, when nothing waits ahead; `done` gets
   * exactly one answer.
   */
  enqueue(intent: Intent, done: (answer: Admission) => void): void {
    const now = this.scope.clock.now();
    if (this.queue.length === 0) {
      const step = this.step(intent, now);
      if ('answer' in step) {
        done(step.answer);
        return;
      }
    }
    this.queue.push({ intent, sinceMs: now, done });
    if (!this.pumping) detach(this.pump(), (error) => this.refuseQueued(error));
  }

  /** Whether intents wait in the queue: a new one must queue behind them. */
  get queueing(): boolean {
    return this.queue.length > 0;
  }

  /** Takes a queued intent out of the queue, answering it with `answer`; false when it is not queued. */
  withdraw(intentId: string, answer: Admission): boolean {
    const at = this.queue.findIndex((q) => q.intent.intentId === intentId);
    if (at < 0) return false;
    const [queued] = this.queue.splice(at, 1);
    queued?.done(answer);
    return true;
  }

  /** Refuses everything still queued with `refusal` and stops the gate's timers. */
  close(refusal: (intent: Intent) => Refusal): void {
    this.lifetime.abort();
    for (const queued of this.queue.splice(0)) queued.done(refusal(queued.intent));
  }

  /** The queue stopped on a fault of its own (close() aborting a wait is none): what waits is refused. */
  private refuseQueued(error: unknown): void {
    if (this.lifetime.signal.aborted) return;
    const message = error instanceof Error ? error.message : String(error);
    for (const queued of this.queue.splice(0))
      queued.done(
        refusal(
          'guard_error',
          queued.intent.kind,
          `the ${this.scope.name} admission queue failed (${message}): refused, since admission fails closed`,
          'report the error; later intents are admitted afresh',
        ),
      );
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      for (let head = this.queue[0]; head !== undefined; head = this.queue[0]) {
        const step = this.step(head.intent, head.sinceMs);
        if ('answer' in step) {
          this.queue.shift();
          head.done(step.answer);
        } else if ('closeFirst' in step) {
          this.queue.shift();
          head.done(
            refusal(
              'margin_mode_open_position',
              step.closeFirst,
              `the ${this.scope.name} scope cannot close a position first`,
            ),
          );
        } else {
          await this.scope.clock.sleep(step.waitMs, this.lifetime.signal);
        }
      }
    } finally {
      this.pumping = false;
    }
  }

  /** One decision on the intent, as the state is now; a wait past `maxWaitMs` (since `startedMs`) is refused. */
  private step(intent: Intent, startedMs: number, current?: AccountState): Step {
    const { clock, maxWaitMs } = this.scope;
    const now = clock.now();
    const verdict = this.decide(intent, now, current);
    switch (verdict.kind) {
      case 'allow':
        this.bucket = recordAction(this.bucket, now, this.scope.config);
        this.scope.onAdmitted?.({ intentId: intent.intentId, atMs: now });
        return { answer: this.scope.inFlight.hold(intent) };
      case 'refuse':
        return { answer: verdict.refusal };
      case 'close_first':
      case 'wait':
        break;
    }
    if (now - startedMs >= maxWaitMs) {
      return {
        answer: refusal(
          'guard_wait_timeout',
          intent.kind,
          `waited ${now - startedMs} ms: ${verdict.reason}`,
          `slow the strategy down or raise the ${this.scope.name} limit`,
        ),
      };
    }
    if (verdict.kind === 'close_first') return { closeFirst: verdict.marketId, reason: verdict.reason };
    return { waitMs: Math.max(1, Math.min(verdict.retryAfterMs ?? 50, maxWaitMs)), reason: verdict.reason };
  }

  /** The conditions, then the scope's rules; a throw anywhere refuses (a check that cannot decide fails closed). */
  private decide(intent: Intent, now: number, current: AccountState | undefined): GuardVerdict {
    try {
      const conditions = this.scope.conditions?.verdict(intent);
      if (conditions !== undefined && conditions.kind !== 'allow') return conditions;
      const judge = this.scope.judge ?? evaluateGuards;
      return judge(this.guardState(intent, now, current), intent, this.scope.config);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return {
        kind: 'refuse',
        refusal: refusal(
          'guard_error',
          intent.kind,
          `the ${this.scope.name} admission check threw (${message}): refused, since a check that cannot decide fails closed`,
          "check the intent's values; report the error if they are valid",
        ),
      };
    }
  }

  private guardState(intent: Intent, now: number, current: AccountState | undefined): GuardState {
    const { positions, marginModes, openOrders } = current ?? this.scope.accountState();
    const inFlight = this.scope.inFlight;
    // Listed rather than spread: a spread that adds fields is slow in V8, and this runs per intent.
    return {
      positions,
      marginModes,
      openOrders,
      inFlight: inFlight.byMarket(inFlightFilterExcluding(this.scope.inFlightFilter, intent.intentId)),
      nowMs: now,
      marks: this.scope.marks?.(intent) ?? this.ownMarks,
      actionBucket: this.bucket,
      lastLeverageUpdateMs: inFlight.lastLeverageUpdateMs,
      leverageUpdateInFlight: inFlight.leverageInFlight(intent.intentId),
      killSwitch: this.kill.state,
    };
  }
}

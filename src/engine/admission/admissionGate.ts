import type { Clock } from '../../core/clock.js';
import type { AccountState } from '../tracking/accountState.js';
import type { GuardConfig } from '../engineConfig.js';
import { fullBucket, recordAction, type TokenBucketState } from '../guards/actionRateLimit.js';
import { evaluateGuards } from '../guards/evaluateGuards.js';
import type { GuardState, GuardVerdict } from '../guards/guardState.js';
import {
  ARMED_KILL_SWITCH,
  resetKillSwitch,
  tripKillSwitch,
  watchLoss,
  type KillSwitchState,
  type PnlSnapshot,
} from '../guards/killSwitch.js';
import type { Intent } from '../intents/intents.js';
import { refusal, type Refusal } from '../intents/refusal.js';
import type { InFlightActions, InFlightFilter, InFlightTicket } from './inFlightActions.js';
import { detach } from '../../core/detach.js';

/**
 * One scope of admission: the account (every guard, the trading conditions) or one strategy's
 * budget. Each scope has its own limits, action bucket and kill switch; all scopes share one
 * count of what is in flight.
 */
export interface AdmissionScope {
  /** "account" or "strategy <name>": named when a check throws. */
  readonly name: string;
  readonly config: GuardConfig;
  readonly clock: Clock;
  /** Longest an intent may wait on a guard before it is refused. */
  readonly maxWaitMs: number;
  readonly inFlight: InFlightActions;
  /** Which in-flight actions this scope counts (a strategy: its own placements). */
  readonly inFlightFilter?: Omit<InFlightFilter, 'excluding'>;
  /** The scope's positions, margin modes and open orders, fresh on every call. */
  accountState(): AccountState;
  /** The scope's rules on one state (default: every account guard). */
  readonly judge?: (state: GuardState, intent: Intent, config: GuardConfig) => GuardVerdict;
  /** Judged before the rules: degraded, reconciling, stopped (the account scope). */
  readonly conditions?: { verdict(intent: Intent): GuardVerdict };
  /** Marks to value positions with (default: the ones given to `setMark`). */
  readonly marks?: (intent: Intent) => ReadonlyMap<number, string>;
  /** Closes the position of a market (a reduce-only market order); margin-mode switches with close_first. */
  closePosition?(intent: Intent): Promise<boolean>;
  /** Called once when the kill switch trips, to cancel what the scope has open. */
  onKillSwitchTripped(reason: string): void;
  /** Called after every change of the kill switch (a trip, a reset): the trading state shows it. */
  onKillSwitchChanged?(state: KillSwitchState): void;
  /** Called as the scope admits an action, with the time its rate limit counted it at. */
  onAdmitted?(admission: ActionAdmission): void;
}

/** An action admitted by a scope: its intent, and the time the scope's action bucket took its token at. */
export interface ActionAdmission {
  readonly intentId: string;
  readonly atMs: number;
}

/** What the gate answers: a refusal, or a ticket (admitted: in flight until settled). */
export type Admission = Refusal | InFlightTicket;

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
  private kill: KillSwitchState = ARMED_KILL_SWITCH;
  private readonly ownMarks = new Map<number, string>();
  private latestPnl: PnlSnapshot | undefined;
  /** A loss seen and waiting for its confirmation; bumping the episode voids a pending one. */
  private lossPending = false;
  private lossEpisode = 0;
  private readonly lifetime = new AbortController();
  /** Intents waiting their turn in arrival order (`enqueue`), the head first. */
  private readonly queue: Queued[] = [];
  private pumping = false;

  constructor(private readonly scope: AdmissionScope) {
    this.bucket = fullBucket(scope.config, scope.clock.now());
  }

  setMark(marketId: number, price: string): void {
    this.ownMarks.set(marketId, price);
  }

  get killSwitch(): KillSwitchState {
    return this.kill;
  }

  trip(reason: string): void {
    const t = tripKillSwitch(this.kill, reason, this.scope.clock.now());
    this.kill = t.state;
    if (t.justTripped) this.tripped(reason);
  }

  reset(): void {
    const wasTripped = this.kill.tripped;
    this.kill = resetKillSwitch();
    this.clearPendingLoss();
    if (wasTripped) this.scope.onKillSwitchChanged?.(this.kill);
  }

  /**
   * Trips the switch on a loss past the limit that is still there `killSwitchLossConfirmMs` after
   * it was first seen (judged on the latest snapshot then), so the half-applied state between two
   * frames of one transaction (a margin move seen on one channel before the other) never trips it.
   */
  watchPnl(pnl: PnlSnapshot): void {
    this.latestPnl = pnl;
    if (this.kill.tripped) return;
    const seen = watchLoss(this.kill, pnl, this.scope.config, this.scope.clock.now());
    if (!seen.justTripped) {
      this.clearPendingLoss();
      return;
    }
    const confirmMs = this.scope.config.killSwitchLossConfirmMs;
    if (confirmMs === 0) {
      this.applyLoss(pnl);
      return;
    }
    if (this.lossPending) return;
    this.lossPending = true;
    const episode = ++this.lossEpisode;
    this.scope.clock.sleep(confirmMs, this.lifetime.signal).then(
      () => {
        if (episode !== this.lossEpisode) return;
        this.lossPending = false;
        if (this.latestPnl !== undefined) this.applyLoss(this.latestPnl);
      },
      // Aborted by dispose(): the scope stopped watching.
      () => undefined,
    );
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
      killSwitch: this.kill,
    };
  }

  private applyLoss(pnl: PnlSnapshot): void {
    const t = watchLoss(this.kill, pnl, this.scope.config, this.scope.clock.now());
    this.kill = t.state;
    if (t.justTripped) this.tripped(t.state.reason ?? 'loss limit');
  }

  /** Told first (the trading state says halted before the cancels go), then the scope cancels. */
  private tripped(reason: string): void {
    this.scope.onKillSwitchChanged?.(this.kill);
    this.scope.onKillSwitchTripped(reason);
  }

  private clearPendingLoss(): void {
    if (!this.lossPending) return;
    this.lossPending = false;
    this.lossEpisode++;
  }
}

/**
 * The scope's filter less the intent being judged, always with the same three keys: a spread that
 * adds a key makes V8 build a new hidden class on every call, and this runs per intent.
 */
function inFlightFilterExcluding(
  filter: Omit<InFlightFilter, 'excluding'> | undefined,
  excluding: string,
): InFlightFilter {
  return { strategy: filter?.strategy, placementsOnly: filter?.placementsOnly, excluding };
}

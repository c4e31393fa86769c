import type { Clock } from '../core/clock.js';
import type { AccountState } from './accountState.js';
import { AdmittedActions, type GuardTicket } from './admittedActions.js';
import type { GuardConfig } from './engineConfig.js';
import { fullBucket, recordAction, type TokenBucketState } from './guards/actionRateLimit.js';
import { evaluateGuards } from './guards/evaluateGuards.js';
import type { GuardState } from './guards/guardState.js';
import { ARMED_KILL_SWITCH, resetKillSwitch, tripKillSwitch, watchLoss, type KillSwitchState, type PnlSnapshot } from './guards/killSwitch.js';
import type { Intent } from './intents.js';
import { rejection, type Rejection } from './rejection.js';

/**
 * The stateful side of the pure guards: owns the action bucket, the admitted actions (in flight
 * until the tracker counts them; leverage updates one at a time), the kill switch and the marks,
 * builds a fresh `GuardState` for every decision, and turns "wait" into waiting (bounded) and
 * "close_first" into a close followed by waiting until flat.
 */
export interface GuardGateDeps {
  readonly config: GuardConfig;
  readonly clock: Clock;
  /** Longest an intent may wait on a guard before it is refused. */
  readonly maxWaitMs: number;
  /** Closes the position of a market (a reduce-only market order) and resolves when it was sent. */
  closePosition(intent: Intent): Promise<boolean>;
  /** Current account state (positions, open orders, in-flight), fresh on every call. */
  accountState(): AccountState;
  /** Called once when the kill switch trips, to cancel everything. */
  onKillSwitchTripped(reason: string): void;
}

export class GuardGate {
  private bucket: TokenBucketState;
  private readonly admitted: AdmittedActions;
  private kill: KillSwitchState = ARMED_KILL_SWITCH;
  private readonly marks = new Map<number, string>();
  private latestPnl: PnlSnapshot | undefined;
  /** A loss seen and waiting for its confirmation; bumping the episode voids a pending one. */
  private lossPending = false;
  private lossEpisode = 0;
  private readonly lifetime = new AbortController();

  constructor(private readonly deps: GuardGateDeps) {
    this.bucket = fullBucket(deps.config, deps.clock.now());
    this.admitted = new AdmittedActions(deps.clock);
  }

  setMark(marketId: number, price: string): void {
    this.marks.set(marketId, price);
  }

  get killSwitch(): KillSwitchState {
    return this.kill;
  }

  trip(reason: string): void {
    const t = tripKillSwitch(this.kill, reason, this.deps.clock.now());
    this.kill = t.state;
    if (t.justTripped) this.deps.onKillSwitchTripped(reason);
  }

  reset(): void {
    this.kill = resetKillSwitch();
    this.clearPendingLoss();
  }

  /**
   * Trips the switch on a loss past the limit that is still there `killSwitchLossConfirmMs` after
   * it was first seen (judged on the latest snapshot then), so the half-applied state between two
   * frames of one transaction (a margin move seen on one channel before the other) never trips it.
   */
  watchPnl(pnl: PnlSnapshot): void {
    this.latestPnl = pnl;
    if (this.kill.tripped) return;
    const seen = watchLoss(this.kill, pnl, this.deps.config, this.deps.clock.now());
    if (!seen.justTripped) {
      this.clearPendingLoss();
      return;
    }
    const confirmMs = this.deps.config.killSwitchLossConfirmMs;
    if (confirmMs === 0) {
      this.applyLoss(pnl);
      return;
    }
    if (this.lossPending) return;
    this.lossPending = true;
    const episode = ++this.lossEpisode;
    this.deps.clock.sleep(confirmMs, this.lifetime.signal).then(
      () => {
        if (episode !== this.lossEpisode) return;
        this.lossPending = false;
        if (this.latestPnl !== undefined) this.applyLoss(this.latestPnl);
      },
      // Aborted by dispose(): the engine stopped watching.
      () => undefined,
    );
  }

  /** Stops pending timers (a loss awaiting confirmation); the engine calls it when it stops. */
  dispose(): void {
    this.lifetime.abort();
  }

  private applyLoss(pnl: PnlSnapshot): void {
    const t = watchLoss(this.kill, pnl, this.deps.config, this.deps.clock.now());
    this.kill = t.state;
    if (t.justTripped) this.deps.onKillSwitchTripped(t.state.reason ?? 'loss limit');
  }

  private clearPendingLoss(): void {
    if (!this.lossPending) return;
    this.lossPending = false;
    this.lossEpisode++;
  }

  /**
   * A ticket = proceed: the action is recorded against the rate limits and counts as in flight
   * until the executor reports it begun (then the tracker counts it) and settled. `current` is the
   * account state read in the same synchronous step (the executor's, for the pre-trade checks):
   * the first decision uses it instead of copying the tracker's maps again; every decision after a
   * wait reads a fresh one.
   */
  async admit(intent: Intent, signal?: AbortSignal, current?: AccountState): Promise<Rejection | GuardTicket> {
    const started = this.deps.clock.now();
    let closed = false;
    let account = current;
    for (;;) {
      const now = this.deps.clock.now();
      const { positions, marginModes, openOrders, inFlight } = account ?? this.deps.accountState();
      // Listed rather than spread: a spread that adds fields is slow in V8, and this runs per intent.
      const state: GuardState = {
        positions,
        marginModes,
        openOrders,
        inFlight: this.admitted.inFlight(inFlight),
        nowMs: now,
        marks: this.marks,
        actionBucket: this.bucket,
        lastLeverageUpdateMs: this.admitted.lastLeverageUpdateMs,
        leverageUpdateInFlight: this.admitted.leverageInFlight,
        killSwitch: this.kill,
      };
      const verdict = evaluateGuards(state, intent, this.deps.config);
      switch (verdict.kind) {
        case 'allow':
          this.bucket = recordAction(this.bucket, now, this.deps.config);
          return this.admitted.admit(intent);
        case 'refuse':
          return verdict.rejection;
        case 'close_first':
          if (!closed) {
            closed = true;
            if (!(await this.deps.closePosition(intent))) {
              return rejection('margin_mode_open_position', verdict.marketId, 'the position could not be closed before switching margin mode');
            }
          }
          break;
        case 'wait':
          break;
      }
      if (now - started >= this.deps.maxWaitMs) {
        return rejection('guard_wait_timeout', intent.kind, `waited ${now - started} ms: ${verdict.kind === 'wait' ? verdict.reason : verdict.reason}`, 'raise the limit or slow the strategy down');
      }
      account = undefined;
      const retryAfter = verdict.kind === 'wait' ? (verdict.retryAfterMs ?? 50) : 50;
      await this.deps.clock.sleep(Math.max(1, Math.min(retryAfter, this.deps.maxWaitMs)), signal);
    }
  }
}

import type { Clock } from '../../core/clock.js';
import type { GuardConfig } from '../config/engineConfig.js';
import {
  ARMED_KILL_SWITCH,
  resetKillSwitch,
  tripKillSwitch,
  watchLoss,
  type KillSwitchState,
  type PnlSnapshot,
} from '../guards/killSwitch.js';

/** What a scope's kill switch needs of its scope (`AdmissionScope`). */
interface KillSwitchScope {
  readonly config: GuardConfig;
  readonly clock: Clock;
  onKillSwitchTripped(reason: string): void;
  onKillSwitchChanged?(state: KillSwitchState): void;
}

/**
 * One admission scope's kill switch: tripped by hand or by a confirmed loss past the scope's
 * limit, reset by hand. The scope hears of every change first, then of a trip (to cancel).
 */
export class ScopeKillSwitch {
  private kill: KillSwitchState = ARMED_KILL_SWITCH;
  private latestPnl: PnlSnapshot | undefined;
  /** A loss seen and waiting for its confirmation; bumping the episode voids a pending one. */
  private lossPending = false;
  private lossEpisode = 0;

  /** `lifetime`: aborted when the scope stops watching (a pending confirmation then never fires). */
  constructor(
    private readonly scope: KillSwitchScope,
    private readonly lifetime: AbortSignal,
  ) {}

  get state(): KillSwitchState {
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
    this.scope.clock.sleep(confirmMs, this.lifetime).then(
      () => {
        if (episode !== this.lossEpisode) return;
        this.lossPending = false;
        if (this.latestPnl !== undefined) this.applyLoss(this.latestPnl);
      },
      // Aborted by dispose(): the scope stopped watching.
      () => undefined,
    );
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

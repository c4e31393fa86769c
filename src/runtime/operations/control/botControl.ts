import type { Observable, Subscription } from 'rxjs';
import type { TradingState } from '../../../engine/admission/tradingConditions.js';
import type { BotMetrics } from '../metrics/botMetrics.js';
import type { BotMonitor } from './botMonitor.js';
import type { BotStatus, Readiness } from './botStatus.js';
import type { EquityPoint } from './equityHistory.js';
import { startingReadiness } from './readiness.js';

/** What an operator asks of the kill switch. */
export type KillSwitchAction = 'trip' | 'reset';

/** The engine's kill switch as the control server drives it (the Engine satisfies it). */
export interface KillSwitchTarget {
  readonly killSwitch: { readonly tripped: boolean; readonly reason?: string };
  readonly conditions: { readonly state: TradingState };
  readonly tradingState$: Observable<TradingState>;
  tripKillSwitch(reason: string): void;
  resetKillSwitch(): void;
}

export type KillSwitchAnswer =
  | { readonly ok: true; readonly killSwitch: { readonly tripped: boolean; readonly reason?: string } }
  | { readonly ok: false; readonly httpStatus: number; readonly error: string };

/**
 * What the control server serves, before and after the bot is wired: the server starts first
 * (so /health answers during a long start-up), and the monitor and engine are attached once they
 * exist. Until then /ready says which start-up step runs.
 */
export class BotControl {
  private startingPhase = 'opening the journal and reconciling with the venue';
  private bot: { readonly monitor: BotMonitor; readonly engine: KillSwitchTarget } | undefined;
  private readonly stateListeners = new Set<() => void>();
  private stateWatch: Subscription | undefined;

  constructor(private readonly metrics: BotMetrics) {}

  starting(phase: string): void {
    this.startingPhase = phase;
  }

  attach(monitor: BotMonitor, engine: KillSwitchTarget): void {
    this.bot = { monitor, engine };
    this.stateWatch?.unsubscribe();
    this.stateWatch = engine.tradingState$.subscribe(() => {
      for (const listener of this.stateListeners) listener();
    });
  }

  /**
   * Calls `listener` whenever the trading state changes (a trip, a reset, degraded and back), and
   * once when the bot is attached; returns the call that stops it.
   */
  onTradingState(listener: () => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  /** Undefined while the bot starts. */
  status(): BotStatus | undefined {
    return this.bot?.monitor.status();
  }

  readiness(): Readiness {
    return this.bot?.monitor.status().ready ?? startingReadiness(this.startingPhase);
  }

  startingStatus(): { readonly phase: 'starting'; readonly step: string; readonly ready: Readiness } {
    return { phase: 'starting', step: this.startingPhase, ready: startingReadiness(this.startingPhase) };
  }

  history(): readonly EquityPoint[] {
    return this.bot?.monitor.equityHistory() ?? [];
  }

  async renderMetrics(): Promise<{ readonly contentType: string; readonly text: string }> {
    return { contentType: this.metrics.contentType, text: await this.metrics.render(this.status()) };
  }

  /**
   * Trips or resets the account's kill switch (tripping cancels every open order). A reset is
   * refused once trading stopped for a definite reason: the bot is shutting down then, and the
   * switch is what keeps it from opening anything meanwhile.
   */
  killSwitch(action: KillSwitchAction, reason: string): KillSwitchAnswer {
    const engine = this.bot?.engine;
    if (engine === undefined)
      return {
        ok: false,
        httpStatus: 503,
        error: `the bot is starting (${this.startingPhase}); try again once it runs`,
      };
    if (action === 'trip') engine.tripKillSwitch(reason);
    else {
      if (engine.conditions.state.mode === 'stopped')
        return {
          ok: false,
          httpStatus: 409,
          error: `trading stopped for a definite reason (${engine.conditions.state.reasons.join('; ')}); the bot is shutting down and the kill switch stays tripped`,
        };
      engine.resetKillSwitch();
    }
    const state = engine.killSwitch;
    return {
      ok: true,
      killSwitch: { tripped: state.tripped, ...(state.reason === undefined ? {} : { reason: state.reason }) },
    };
  }
}

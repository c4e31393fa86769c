import type { TradingConditions } from '../engine/admission/tradingConditions.js';

/** The journal's name among the engine's reconcilers (in the reasons strategies and logs see). */
export const JOURNAL_RECONCILER = 'journal';

/**
 * The journal's reconnect reconciliation as one of the engine's trading conditions: while it runs,
 * intents wait in the engine's admission gate; while it has failed, the engine is degraded and
 * intents are refused with the reason and what the bot does next.
 */
export class ReconcilerGate {
  constructor(
    private readonly conditions: TradingConditions,
    /** Attempts of one reconnect's reconciliation, the first included. */
    private readonly attempts: number,
  ) {}

  running(): void {
    this.conditions.reconcileStarted(JOURNAL_RECONCILER);
  }

  succeeded(): void {
    this.conditions.reconcileSucceeded(JOURNAL_RECONCILER);
  }

  /**
   * `attempt` (1-based) is the failed attempt's place in the retries, undefined for a one-off: the
   * hint says what comes next.
   */
  failed(reason: string, attempt?: number): void {
    const hint =
      attempt === undefined
        ? 'the bot retries reconciliation at the next reconnect'
        : attempt < this.attempts
          ? `the bot retries reconciliation shortly (attempt ${attempt + 1} of ${this.attempts})`
          : `reconciliation failed ${this.attempts} times: the bot retries at the next reconnect`;
    this.conditions.reconcileFailed(JOURNAL_RECONCILER, reason, [hint]);
  }
}

import type { Clock } from '../core/clock.js';
import { exponentialBackoff, withRetry } from '../core/withRetry.js';
import type { TradingConditions } from './admission/tradingConditions.js';
import type { Logger } from '../core/logger.js';

/** The engine's name among the reconcilers of the trading conditions. */
export const ENGINE_RECONCILER = 'engine';

/**
 * The engine's reconciliation after a reconnect, retried with backoff while it fails: the engine
 * stays degraded meanwhile, with the reason. A newer reconnect's reconciliation takes over (its
 * round wins; an older one's retries stand down), and nothing is retried once the engine stops.
 */
export class ReconnectReconciler {
  private round = 0;

  constructor(
    private readonly o: {
      readonly conditions: TradingConditions;
      readonly reconcile: () => Promise<void>;
      readonly clock: Clock;
      readonly log: Logger;
      readonly signal: AbortSignal;
      readonly stopping: () => boolean;
    },
  ) {}

  async run(): Promise<void> {
    const { log, clock } = this.o;
    const round = ++this.round;
    try {
      await withRetry(() => this.attempt(round), {
        attempts: Number.POSITIVE_INFINITY,
        delayMs: exponentialBackoff({ baseMs: 1_000, maxMs: 30_000 }),
        shouldRetry: () => round === this.round && !this.o.stopping(),
        clock,
        signal: this.o.signal,
        onRetry: ({ attempt, delayMs, error }) =>
          log.warn(
            { err: error, attempt, delayMs },
            `reconciliation after a reconnect failed: trading stays degraded; retrying in ${delayMs} ms`,
          ),
      });
    } catch (error) {
      if (!this.o.stopping()) log.error({ err: error }, 'reconciliation after a reconnect gave up');
    }
  }

  private async attempt(round: number): Promise<void> {
    const { conditions } = this.o;
    if (round !== this.round) return;
    conditions.reconcileStarted(ENGINE_RECONCILER);
    try {
      await this.o.reconcile();
      if (round === this.round) conditions.reconcileSucceeded(ENGINE_RECONCILER);
    } catch (error) {
      conditions.reconcileFailed(
        ENGINE_RECONCILER,
        `the engine's reconciliation after a reconnect failed (${error instanceof Error ? error.message : String(error)})`,
        ['the engine retries it with backoff'],
      );
      throw error;
    }
  }
}

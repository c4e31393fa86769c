import type { Logger } from '../../core/logger.js';
import type { TradingConditions } from '../admission/tradingConditions.js';
import type { ReconnectPart, ReconnectRetry } from './reconnectReconciler.js';

/** The engine's name among the reconcilers of the trading conditions. */
const ENGINE_RECONCILER = 'engine';

/** Until it succeeds: the engine trades on nothing but a fresh snapshot. */
const SNAPSHOT_RETRY: ReconnectRetry = { attempts: Number.POSITIVE_INFINITY, baseMs: 1_000, maxMs: 30_000 };

/**
 * The engine's part of the reconciliation after a reconnect: open orders, positions and balance
 * from REST (`Engine.reconcile`), started at once (no settle pause). While it fails the engine
 * stays degraded with the reason; an attempt a newer reconnect superseded does not lift that.
 */
export class SnapshotReconnectPart implements ReconnectPart {
  readonly name = ENGINE_RECONCILER;
  readonly label = "the engine's reconciliation after a reconnect";
  readonly retry = SNAPSHOT_RETRY;
  readonly log: Logger;

  constructor(
    private readonly o: {
      readonly conditions: TradingConditions;
      readonly reconcile: () => Promise<void>;
      readonly log: Logger;
    },
  ) {
    this.log = o.log;
  }

  async attempt(_attempt: number, round: AbortSignal): Promise<void> {
    const { conditions } = this.o;
    conditions.reconcileStarted(ENGINE_RECONCILER);
    try {
      await this.o.reconcile();
      if (!round.aborted) conditions.reconcileSucceeded(ENGINE_RECONCILER);
    } catch (error) {
      conditions.reconcileFailed(
        ENGINE_RECONCILER,
        `${this.label} failed (${error instanceof Error ? error.message : String(error)})`,
        ['the engine retries it with backoff'],
      );
      throw error;
    }
  }
}

import type { Logger } from '../../core/logger.js';
import type { TradingConditions } from '../admission/tradingConditions.js';
import type { VenueSnapshot } from '../../venue/state/venueSnapshot.js';
import type { ReconnectPart, ReconnectRetry } from './reconnectReconciler.js';
import type { RoundSnapshot } from './roundSnapshot.js';

/** The engine's name among the reconcilers of the trading conditions. */
const ENGINE_RECONCILER = 'engine';

/** Until it succeeds: the engine trades on nothing but a fresh snapshot. */
const SNAPSHOT_RETRY: ReconnectRetry = { attempts: Number.POSITIVE_INFINITY, baseMs: 1_000, maxMs: 30_000 };

/**
 * The engine's part of the reconciliation after a reconnect: open orders, positions and balance
 * as the round's one read shows them (`Engine.reconcile`), started at once (no settle pause). While it fails the engine
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
      /** Applies the venue as read to the engine's state. */
      readonly reconcile: (snapshot: VenueSnapshot) => Promise<void>;
      /** The markets the engine trades: the round's read covers them. */
      readonly markets: () => readonly number[];
      readonly log: Logger;
    },
  ) {
    this.log = o.log;
  }

  markets(): readonly number[] {
    return this.o.markets();
  }

  async attempt(_attempt: number, round: AbortSignal, venue: RoundSnapshot): Promise<void> {
    const { conditions } = this.o;
    conditions.reconcileStarted(ENGINE_RECONCILER);
    try {
      await this.o.reconcile(await venue.snapshot());
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

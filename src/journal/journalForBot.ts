import type { Observable } from 'rxjs';
import type { Clock } from '../core/clock.js';
import type { Engine } from '../engine/engine.js';
import type { EngineJournal } from '../engine/tracking/engineJournal.js';
import type { Logger } from '../core/logger.js';
import type { NoncePair } from '../engine/nonces/noncePair.js';
import type { ReconnectRetry } from '../engine/connection/reconnectReconciler.js';
import type { StrategyStorage } from '../strategy/strategyContext.js';
import type { RestClient } from '../venue/rest/restClient.js';
import type { Journal } from './journal.js';
import type { ResilientEngineJournal } from './resilientEngineJournal.js';
import type { UnknownOrderPolicy } from './reconcileOptions.js';
import type { ReconciliationReport } from './reconciliationReport.js';

export interface JournalForBotOptions {
  readonly path: string;
  readonly account: string;
  readonly rest: RestClient;
  readonly clock: Clock;
  readonly log: Logger;
  readonly markets: readonly number[];
  readonly runId: string;
  readonly unknownOrders: UnknownOrderPolicy;
  /** The strategy that adopts an unknown open order of a market. */
  readonly adopter: (marketId: number) => string | undefined;
  /** Longest the start waits for permits of a previous run that could still land. */
  readonly maxInFlightWaitMs: number;
  /** A drill: while it answers a reason, every journal write fails as on a full disk (see `journalWriteFault`). */
  readonly writeFault?: () => string | undefined;
  /**
   * Pause after a reconnect before reconciling (default 100 ms), so fills already on the wire
   * arrive on the channel first; one missed anyway comes from the trade history, counted once.
   */
  readonly settleMs?: number;
  /** Retries of a failed reconnect reconciliation; default `RECONNECT_RETRY` (reconnectReconciliation.ts). */
  readonly reconnectRetry?: ReconnectRetry;
  /**
   * Runs on the opened journal before the start's reconciliation (the TP/SL executions of the time
   * away journaled as their strategies' orders, so the missed fills read next find their owner).
   */
  readonly beforeStartReconciliation?: (journal: Journal) => Promise<unknown>;
}

export interface ConnectionFeeds {
  /** Emits when positions may have changed (the positions channel). */
  readonly positionsChanged$: Observable<unknown>;
}

/** The journal as the bot uses it: see `openJournalForBot`. */
export interface JournalForBot {
  readonly journal: Journal;
  readonly engineJournal: EngineJournal;
  readonly restoredNonceHighWater?: NoncePair;
  readonly startReport: ReconciliationReport;
  /**
   * Before `engine.start()`: makes the journal the tracker's fill ledger (a fill is counted once,
   * across runs and sources), gives the tracker the resting orders, then journals what it learns.
   */
  beforeStart(engine: Engine): void;
  /**
   * After `engine.start()`: cancels unknown orders (policy cancel) and adds the journal's
   * reconciliation to the engine's reconnect reconciler (`engine.addReconnectPart`), after the
   * engine's own. It is one of the engine's trading conditions: while it runs, intents wait in the
   * engine's admission gate; while it has failed, the engine is degraded.
   */
  afterStart(engine: Engine, feeds: ConnectionFeeds): Promise<void>;
  /**
   * From now on the runtime's writes (orders, fills, positions, strategy state) go through the
   * resilient journal: a journal that cannot be written stops opening instead of throwing.
   */
  guardWrites(resilient: ResilientEngineJournal): void;
  storage(strategy: string): StrategyStorage;
  /** Runs the reconnect reconciliation once, now, as each of its attempts after a reconnect does. */
  reconcileNow(engine: Engine, closedSinceMs: number): Promise<ReconciliationReport>;
  /**
   * The run's last reconciliation, once the strategies stopped and the engine drained: the fills
   * since the last one the journal holds (less the history margin) and the fate of every order it
   * thinks open, read from the venue and journaled through the engine's tracker. A stalled stream
   * loses frames without a reconnect, and a stop leaves no later reconnect to read them back.
   */
  reconcileAtStop(engine: Engine): Promise<ReconciliationReport>;
  close(): void;
}

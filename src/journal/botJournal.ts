import { Subject, Subscription } from 'rxjs';
import type { Engine } from '../engine/engine.js';
import type { EngineJournal } from '../engine/tracking/engineJournal.js';
import type { NoncePair } from '../engine/nonces/noncePair.js';
import type { StrategyStorage } from '../strategy/strategyContext.js';
import type { Journal } from './journal.js';
import { journalEngineHooks } from './journalEngineHooks.js';
import { journalFillLedger } from './journalFillLedger.js';
import { journalStrategyStorage } from './journalStrategyStorage.js';
import type { ConnectionFeeds, JournalForBot, JournalForBotOptions } from './journalForBot.js';
import { reconcileCancel } from './reconcileCancel.js';
import { reconcileForBot } from './reconcileForBot.js';
import { ReconnectReconciliation } from './reconnectReconciliation.js';
import type { ReconciliationReport } from './reconciliationReport.js';
import { recordTrackerEvents } from './recordTrackerEvents.js';
import { restoreTracker } from './restoreTracker.js';
import { guardedJournalWrites } from './guardedJournalWrites.js';
import type { ResilientEngineJournal } from './resilientEngineJournal.js';

/** The journal of a bot whose start-up reconciliation completed: see `JournalForBot`. */
export class BotJournal implements JournalForBot {
  readonly engineJournal: EngineJournal;
  // Declared, not defined: the property is absent, not undefined, when the journal holds no nonce.
  declare readonly restoredNonceHighWater?: NoncePair;
  private readonly subscriptions = new Subscription();
  private readonly reconnects: ReconnectReconciliation;
  /** The journal the runtime's writers use: guarded once `guardWrites` is called. */
  private writes: Journal;

  constructor(
    private readonly o: JournalForBotOptions,
    readonly journal: Journal,
    readonly startReport: ReconciliationReport,
  ) {
    this.engineJournal = journalEngineHooks(journal, o.account, o.runId);
    const highWater = journal.nonceHighWater(o.account);
    if (highWater !== undefined) this.restoredNonceHighWater = highWater;
    this.reconnects = new ReconnectReconciliation(o, journal);
    this.writes = journal;
  }

  guardWrites(resilient: ResilientEngineJournal): void {
    this.writes = guardedJournalWrites(this.journal, resilient);
  }

  beforeStart(engine: Engine): void {
    engine.tracker.useFillLedger(journalFillLedger(this.writes, this.o.account, this.o.clock));
    const restored = restoreTracker(engine.tracker, this.journal, this.o.account);
    if (restored > 0) this.o.log.info({ restored }, 'resting orders of the previous run restored from the journal');
    this.subscriptions.add(
      recordTrackerEvents(
        this.writes,
        this.o.account,
        {
          orders$: engine.orders$,
          fills$: engine.fills$,
          positionsChanged$: new Subject(),
          allPositions: () => engine.tracker.allPositions(),
          causeOf: (order) => engine.tracker.causeOf(order),
          infer: (intentId, event) => engine.tracker.infer(intentId, event),
        },
        this.o.clock,
      ),
    );
  }

  async afterStart(engine: Engine, feeds: ConnectionFeeds): Promise<void> {
    this.subscriptions.add(
      recordTrackerEvents(
        this.writes,
        this.o.account,
        {
          orders$: new Subject(),
          fills$: new Subject(),
          positionsChanged$: feeds.positionsChanged$,
          allPositions: () => engine.tracker.allPositions(),
        },
        this.o.clock,
      ),
    );
    // Before the start's cancels are awaited: a reconnect or lost frames meanwhile start a round,
    // which must read the journal's history too. Removed (its retries aborted) when the journal closes.
    this.subscriptions.add(engine.addReconnectPart(this.reconnects.part(engine)));
    await Promise.all(this.startReport.toCancel.map((c) => engine.execute(reconcileCancel(c, this.o.clock.now()))));
  }

  storage(strategy: string): StrategyStorage {
    return journalStrategyStorage(this.writes, this.o.account, strategy, this.o.clock);
  }

  reconcileNow(engine: Engine, closedSinceMs: number): Promise<ReconciliationReport> {
    return this.reconnects.attempt(engine, closedSinceMs);
  }

  reconcileAtStop(engine: Engine): Promise<ReconciliationReport> {
    return reconcileForBot(this.o, this.journal, 'stop', { engine });
  }

  close(): void {
    this.subscriptions.unsubscribe();
    if (!this.journal.db.open) return;
    try {
      this.journal.endRun(this.o.runId, this.o.clock.now());
    } catch (err) {
      this.o.log.warn({ err }, 'the end of the run could not be journaled (the next start reconciles it)');
    }
    this.journal.close();
  }
}

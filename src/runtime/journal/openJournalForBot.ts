import { Subject, Subscription, type Observable } from 'rxjs';
import type { Clock } from '../../core/clock.js';
import { exponentialBackoff, withRetry } from '../../core/withRetry.js';
import type { Engine } from '../../engine/engine.js';
import type { EngineJournal } from '../../engine/tracking/engineJournal.js';
import type { ExecutorLogger } from '../../engine/sending/executor.js';
import { cancel } from '../../engine/intents/intentBuilders.js';
import type { NoncePair } from '../../engine/nonces/noncePair.js';
import type { StrategyStorage } from '../../strategy/strategyContext.js';
import type { RestClient } from '../../venue/rest/restClient.js';
import type { FillRecord } from '../../venue/schemas/wsFramesPrivate.js';
import { isTransientFailure } from '../../venue/rest/requestFaults.js';
import type { Journal } from './journal.js';
import { journalEngineHooks } from './journalEngineHooks.js';
import { journalFillLedger } from './journalFillLedger.js';
import { JournalError } from './journalError.js';
import { journalStrategyStorage } from './journalStrategyStorage.js';
import { openJournal } from './openJournal.js';
import { recordTrackerEvents } from './recordTrackerEvents.js';
import { reconcileWithVenue, type UnknownOrderPolicy } from './reconcileWithVenue.js';
import { describeDifference, type ReconciliationReport } from './reconciliationReport.js';
import { restoreTracker } from './restoreTracker.js';

export interface JournalForBotOptions {
  readonly path: string;
  readonly account: string;
  readonly rest: RestClient;
  readonly clock: Clock;
  readonly log: ExecutorLogger;
  readonly markets: readonly number[];
  readonly runId: string;
  readonly unknownOrders: UnknownOrderPolicy;
  /** The strategy that adopts an unknown open order of a market. */
  readonly adopter: (marketId: number) => string | undefined;
  /** Longest the start waits for permits of a previous run that could still land. */
  readonly maxInFlightWaitMs: number;
  /**
   * Pause after a reconnect before reconciling (default 100 ms), so fills already on the wire
   * arrive on the channel first; one missed anyway comes from the trade history, counted once.
   */
  readonly settleMs?: number;
  /** Retries of a failed reconnect reconciliation; default `RECONNECT_RETRY`. */
  readonly reconnectRetry?: ReconnectRetry;
}

/** Attempts (the first included) and exponential backoff of the reconciliation after a reconnect. */
export interface ReconnectRetry {
  readonly attempts: number;
  readonly baseMs: number;
  readonly maxMs: number;
}

/** About a minute and a half of retries (1, 2, 4, 8, 16, 30, 30 s, less jitter), then the next reconnect. */
/** The journal's name among the engine's reconcilers (in the reasons strategies and logs see). */
const RECONCILER = 'journal';

export const RECONNECT_RETRY: ReconnectRetry = { attempts: 8, baseMs: 1_000, maxMs: 30_000 };

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
   * After `engine.start()`: cancels unknown orders (policy cancel) and follows the engine's
   * reconnects (`engine.reconnects$`). The reconnect reconciliation is one of the engine's trading
   * conditions: while it runs, intents wait in the engine's admission gate; while it has failed,
   * the engine is degraded.
   */
  afterStart(engine: Engine, feeds: ConnectionFeeds): Promise<void>;
  storage(strategy: string): StrategyStorage;
  /** Runs the reconnect reconciliation once, now (tests, and each attempt of the reconnect handler). */
  reconcileNow(engine: Engine, closedSinceMs: number): Promise<ReconciliationReport>;
  close(): void;
}

/**
 * Opens the journal at the configured path, reconciles it with the venue before anything trades
 * (resolving what a previous run left in flight, waiting out permits that could still land), and
 * hands the engine its write-ahead hooks and the nonce high-water mark. Throws a JournalError
 * saying why when reconciliation cannot complete: the bot must not trade on a state it does not
 * know.
 */
export async function openJournalForBot(o: JournalForBotOptions): Promise<JournalForBot> {
  const journal = openJournal(o.path);
  const subscriptions = new Subscription();
  /** The retries of the latest reconnect; aborted by a newer reconnect and by close. */
  let retries: AbortController | undefined;
  /** Start of the window no reconciliation has covered yet: the earliest disconnect since the last success. */
  let unreconciledSince: number | undefined;
  const retryPolicy = o.reconnectRetry ?? RECONNECT_RETRY;

  const reconcile = async (trigger: ReconciliationReport['trigger'], closedSinceMs?: number, engine?: Engine) => {
    const report = await reconcileWithVenue({
      journal,
      rest: o.rest,
      account: o.account,
      markets: o.markets,
      clock: o.clock,
      trigger,
      currentRunId: o.runId,
      unknownOrders: o.unknownOrders,
      adopter: o.adopter,
      apply: true,
      ...(closedSinceMs === undefined ? {} : { closedSinceMs }),
      // While the engine runs, missed fills go through its tracker: counted once (its ledger is the
      // journal), and strategies and their budgets hear them.
      ...(engine === undefined
        ? {}
        : { countHistoryFill: (fill: FillRecord) => engine.tracker.onFill(fill, 'history') !== undefined }),
    });
    if (report.historyUnavailable !== undefined) {
      o.log.warn(
        { trigger, reason: report.historyUnavailable },
        `reconciliation (${trigger}): the venue's history could not be read; missed fills and order fates inferred from the position (inferred: history unavailable)`,
      );
    }
    for (const d of report.differences)
      o.log.warn({ difference: d }, `reconciliation (${trigger}): ${describeDifference(d)}`);
    o.log.info(
      { trigger, ok: report.ok, differences: report.differences.length, balance: report.balance },
      'reconciliation done',
    );
    return report;
  };

  let startReport: ReconciliationReport;
  try {
    journal.beginRun(o.account, o.runId, o.clock.now());
    const giveUpAt = o.clock.now() + o.maxInFlightWaitMs;
    startReport = await reconcile('start');
    while (!startReport.ok && startReport.retryAtMs !== undefined && startReport.retryAtMs <= giveUpAt) {
      o.log.warn(
        { retryAtMs: startReport.retryAtMs },
        'permits of the previous run could still land: waiting for their deadline before trading',
      );
      await o.clock.sleep(Math.max(0, startReport.retryAtMs - o.clock.now()));
      const earlier = startReport.differences.filter((d) => d.type !== 'in_flight_unresolved');
      const next = await reconcile('start');
      // One report for the whole start: what the first pass resolved, then what the wait resolved.
      startReport = {
        ...next,
        differences: [...earlier, ...next.differences],
        toCancel: [...startReport.toCancel, ...next.toCancel],
      };
    }
  } catch (error) {
    journal.close();
    // A read that failed transiently: the caller's start-up deadline decides whether to try again.
    if (isTransientFailure(error)) throw error;
    throw new JournalError('reconciliation with the venue failed at start: refusing to trade', {
      code: 'RECONCILE_FAILED',
      details: { path: o.path },
      hints: [
        'check the venue URLs and that the venue answers open orders, positions and nonce state',
        'run `perpbot reconcile` to see the differences',
      ],
      cause: error,
    });
  }
  if (!startReport.ok) {
    journal.close();
    const unresolved = startReport.differences.filter((d) => d.type === 'in_flight_unresolved').map(describeDifference);
    throw new JournalError(
      `reconciliation could not resolve ${unresolved.length} in-flight intent(s): refusing to trade`,
      {
        code: 'RECONCILE_INCOMPLETE',
        details: { unresolved },
        hints: [
          'wait for their permit deadlines to pass and start again',
          'run `perpbot reconcile` to see the differences',
        ],
      },
    );
  }

  /**
   * One reconnect reconciliation. `attempt` (1-based) is its place in the retries: the hint of a
   * refusal says what comes next.
   */
  const attemptReconcile = async (engine: Engine, closedSinceMs: number, attempt?: number) => {
    engine.conditions.reconcileStarted(RECONCILER);
    try {
      const report = await reconcile('reconnect', closedSinceMs, engine);
      unreconciledSince = undefined;
      engine.conditions.reconcileSucceeded(RECONCILER);
      for (const c of report.toCancel)
        engine.submit(
          cancel({
            intentId: `reconcile-cancel-${c.orderId}-${o.clock.now()}`,
            strategy: 'reconcile',
            marketId: c.marketId,
            target: { orderId: c.orderId },
          }),
        );
      return report;
    } catch (error) {
      const failure = `reconciliation after a reconnect failed (${error instanceof Error ? error.message : String(error)})`;
      const hint =
        attempt === undefined
          ? 'the bot retries reconciliation at the next reconnect'
          : attempt < retryPolicy.attempts
            ? `the bot retries reconciliation shortly (attempt ${attempt + 1} of ${retryPolicy.attempts})`
            : `reconciliation failed ${retryPolicy.attempts} times: the bot retries at the next reconnect`;
      engine.conditions.reconcileFailed(RECONCILER, failure, [hint]);
      o.log.error({ err: error, attempt }, failure);
      throw error;
    }
  };
  const reconcileNow = (engine: Engine, closedSinceMs: number) => attemptReconcile(engine, closedSinceMs);

  /**
   * The reconnect reconciliation, retried with backoff while it fails: trading stays paused with
   * the reason (intents refused, not queued: a strategy should not act on stale intents), and
   * resumes at the first attempt that succeeds. Once the attempts run out, the next reconnect
   * tries again.
   */
  const reconcileAfterReconnect = async (engine: Engine, closedSinceMs: number) => {
    retries?.abort();
    const controller = new AbortController();
    retries = controller;
    try {
      await withRetry((attempt) => attemptReconcile(engine, closedSinceMs, attempt), {
        attempts: retryPolicy.attempts,
        delayMs: exponentialBackoff({ baseMs: retryPolicy.baseMs, maxMs: retryPolicy.maxMs }),
        shouldRetry: () => !controller.signal.aborted,
        signal: controller.signal,
        clock: o.clock,
        onRetry: ({ attempt, delayMs }) =>
          o.log.warn(
            { attempt, attempts: retryPolicy.attempts, delayMs },
            `reconciliation after a reconnect: retrying in ${delayMs} ms (attempt ${attempt + 1} of ${retryPolicy.attempts})`,
          ),
      });
    } catch (error) {
      if (controller.signal.aborted) return;
      o.log.error(
        { err: error, attempts: retryPolicy.attempts },
        `trading stays paused: reconciliation failed ${retryPolicy.attempts} times: the bot retries at the next reconnect`,
      );
    } finally {
      if (retries === controller) retries = undefined;
    }
  };

  const highWater = journal.nonceHighWater(o.account);
  return {
    journal,
    engineJournal: journalEngineHooks(journal, o.account, o.runId),
    ...(highWater === undefined ? {} : { restoredNonceHighWater: highWater }),
    startReport,
    beforeStart(engine) {
      engine.tracker.useFillLedger(journalFillLedger(journal, o.account, o.clock));
      const restored = restoreTracker(engine.tracker, journal, o.account);
      if (restored > 0) o.log.info({ restored }, 'resting orders of the previous run restored from the journal');
      subscriptions.add(
        recordTrackerEvents(
          journal,
          o.account,
          {
            orders$: engine.orders$,
            fills$: engine.fills$,
            positionsChanged$: new Subject(),
            allPositions: () => engine.tracker.allPositions(),
          },
          o.clock,
        ),
      );
    },
    async afterStart(engine, feeds) {
      engine.conditions.registerReconciler(RECONCILER);
      subscriptions.add(
        recordTrackerEvents(
          journal,
          o.account,
          {
            orders$: new Subject(),
            fills$: new Subject(),
            positionsChanged$: feeds.positionsChanged$,
            allPositions: () => engine.tracker.allPositions(),
          },
          o.clock,
        ),
      );
      await Promise.all(
        startReport.toCancel.map((c) =>
          engine.execute(
            cancel({
              intentId: `reconcile-cancel-${c.orderId}-${o.clock.now()}`,
              strategy: 'reconcile',
              marketId: c.marketId,
              target: { orderId: c.orderId },
            }),
          ),
        ),
      );
      subscriptions.add(
        engine.reconnects$.subscribe(({ lostAtMs }) => {
          // A drop while an earlier reconnect is still unreconciled: cover both windows.
          const since = Math.min(lostAtMs, unreconciledSince ?? lostAtMs);
          unreconciledSince = since;
          // Until a reconciliation reads the history of this window, a restart reads back to it.
          journal.openFillGap(o.account, since);
          retries?.abort();
          // Intents wait from now: the reconciliation counts as running through its settle pause.
          engine.conditions.reconcileStarted(RECONCILER);
          void o.clock
            .sleep(o.settleMs ?? 100)
            .then(() => reconcileAfterReconnect(engine, since))
            .catch(() => undefined);
        }),
      );
    },
    storage: (strategy) => journalStrategyStorage(journal, o.account, strategy, o.clock),
    reconcileNow,
    close() {
      subscriptions.unsubscribe();
      retries?.abort();
      if (journal.db.open) {
        journal.endRun(o.runId, o.clock.now());
        journal.close();
      }
    },
  };
}

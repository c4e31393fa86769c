import type { Engine } from '../engine/engine.js';
import type { ReconcileCause, ReconnectPart, ReconnectRetry } from '../engine/connection/reconnectReconciler.js';
import type { RoundSnapshot } from '../engine/connection/roundSnapshot.js';
import type { Journal } from './journal.js';
import type { JournalForBotOptions } from './journalForBot.js';
import { reconcileCancel } from './reconcileCancel.js';
import { reconcileForBot } from './reconcileForBot.js';
import { JOURNAL_RECONCILER, ReconcilerGate } from './reconcilerGate.js';
import type { ReconciliationReport } from './reconciliationReport.js';

/** About a minute and a half of retries (1, 2, 4, 8, 16, 30, 30 s, less jitter), then the next reconnect. */
export const RECONNECT_RETRY: ReconnectRetry = { attempts: 8, baseMs: 1_000, maxMs: 30_000 };

/**
 * The journal's reconciliation after each of the engine's reconnects, as a part of the engine's
 * reconnect reconciler (which waits the settle pause, retries it with backoff while it fails, and
 * lets a newer reconnect abort an older one's retries): it covers the window since the earliest
 * disconnect no reconciliation has covered yet. Trading waits while it runs and stays paused with
 * the reason while it fails (see ReconcilerGate).
 */
export class ReconnectReconciliation {
  /** Start of the window no reconciliation has covered yet: the earliest disconnect since the last success. */
  private unreconciledSince: number | undefined;
  /** Start of the window the latest reconnect's attempts cover. */
  private roundSince = 0;
  /** What the latest round's reconciliations are journaled as. */
  private roundTrigger: ReconcileCause = 'reconnect';
  /** Counts the windows opened: an attempt that finishes after a newer one opened speaks only for its own. */
  private windows = 0;
  private readonly policy: ReconnectRetry;

  constructor(
    private readonly o: JournalForBotOptions,
    private readonly journal: Journal,
  ) {
    this.policy = o.reconnectRetry ?? RECONNECT_RETRY;
  }

  /** The part the engine runs after each reconnect (see `Engine.addReconnectPart`). */
  part(engine: Engine): ReconnectPart {
    return {
      name: JOURNAL_RECONCILER,
      label: 'reconciliation after a reconnect',
      retry: this.policy,
      settleMs: this.o.settleMs ?? 100,
      log: this.o.log,
      reconnected: (lostAtMs, cause) => this.openWindow(lostAtMs, cause),
      markets: () => this.markets(),
      attempt: (attempt, _round, venue) => this.attempt(engine, this.roundSince, attempt, venue, this.roundTrigger),
    };
  }

  /**
   * One reconnect reconciliation. `attempt` (1-based) is its place in the retries, undefined for a
   * one-off: the hint of a refusal says what comes next. Cancels the unknown orders it finds (policy cancel).
   * `venue`: the reconnect's one read of the venue, which the first attempt shares with the engine's
   * reconciliation; a retry reads afresh (the first read may be older than fills since).
   */
  async attempt(
    engine: Engine,
    closedSinceMs: number,
    attempt?: number,
    venue?: RoundSnapshot,
    trigger: ReconcileCause = 'reconnect',
  ): Promise<ReconciliationReport> {
    const window = this.windows;
    const gate = new ReconcilerGate(engine.conditions, this.policy.attempts);
    gate.running();
    try {
      const snapshot = await venue?.snapshot({ fresh: (attempt ?? 1) > 1 });
      const report = await reconcileForBot(this.o, this.journal, trigger, { closedSinceMs, engine, snapshot });
      if (window === this.windows) {
        this.unreconciledSince = undefined;
        gate.succeeded();
      } else this.superseded();
      for (const c of report.toCancel) engine.submit(reconcileCancel(c, this.o.clock.now()));
      return report;
    } catch (error) {
      const failure = `reconciliation after a reconnect failed (${error instanceof Error ? error.message : String(error)})`;
      // A newer reconnect's attempts own the gate now: this failure is only logged.
      if (window === this.windows) gate.failed(failure, attempt);
      this.o.log.error({ err: error, attempt }, failure);
      throw error;
    }
  }

  /**
   * An attempt that succeeded after the connection dropped again: its history read may predate
   * fills of the newer window, so that window stays open (in the journal too, whose gap the
   * success just closed) and the gate stays with the newer reconnect's attempts. Nothing to do
   * when one of those already succeeded: it read after the drop and covered both windows.
   */
  private superseded(): void {
    const since = this.unreconciledSince;
    if (since === undefined) return;
    this.journal.openFillGap(this.o.account, since);
    this.o.log.info(
      { sinceMs: since },
      'reconciliation after a reconnect finished, but the connection dropped again meanwhile: the next one covers both',
    );
  }

  /** The markets the reconciliation compares: those configured, its live orders' and its in-flight intents'. */
  private markets(): number[] {
    const { account } = this.o;
    const live = this.journal.liveOrders(account).map((l) => l.marketId);
    const inFlight = this.journal.inFlightIntents(account).map((f) => f.marketId);
    return [...new Set([...this.o.markets, ...live, ...inFlight])];
  }

  /** A reconnect whose connection was lost at `lostAtMs`: the window its attempts cover. */
  private openWindow(lostAtMs: number, cause: ReconcileCause): void {
    // Frames lost before a reconnect's window was reconciled: the round still covers that reconnect.
    const reconnectPending = this.unreconciledSince !== undefined && this.roundTrigger === 'reconnect';
    this.roundTrigger = reconnectPending ? 'reconnect' : cause;
    // A drop while an earlier reconnect is still unreconciled: cover both windows.
    const since = Math.min(lostAtMs, this.unreconciledSince ?? lostAtMs);
    this.windows++;
    this.unreconciledSince = since;
    this.roundSince = since;
    // Until a reconciliation reads the history of this window, a restart reads back to it.
    this.journal.openFillGap(this.o.account, since);
  }
}

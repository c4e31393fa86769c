import { exponentialBackoff, withRetry } from '../../core/withRetry.js';
import type { Engine } from '../../engine/engine.js';
import type { Journal } from './journal.js';
import type { JournalForBotOptions } from './openJournalForBot.js';
import { reconcileCancel } from './reconcileCancel.js';
import { reconcileForBot } from './reconcileForBot.js';
import { ReconcilerGate } from './reconcilerGate.js';
import type { ReconciliationReport } from './reconciliationReport.js';

/** Attempts (the first included) and exponential backoff of the reconciliation after a reconnect. */
export interface ReconnectRetry {
  readonly attempts: number;
  readonly baseMs: number;
  readonly maxMs: number;
}

/** About a minute and a half of retries (1, 2, 4, 8, 16, 30, 30 s, less jitter), then the next reconnect. */
export const RECONNECT_RETRY: ReconnectRetry = { attempts: 8, baseMs: 1_000, maxMs: 30_000 };

/**
 * The journal's reconciliation after each of the engine's reconnects: it covers the window since
 * the earliest disconnect no reconciliation has covered yet, is retried with backoff (through
 * `withRetry`) while it fails, and a newer reconnect (or `stop`) aborts the retries of an older one.
 * Trading waits while it runs and stays paused with the reason while it fails (see ReconcilerGate).
 */
export class ReconnectReconciliation {
  /** The retries of the latest reconnect; aborted by a newer reconnect and by stop. */
  private retries: AbortController | undefined;
  /** Start of the window no reconciliation has covered yet: the earliest disconnect since the last success. */
  private unreconciledSince: number | undefined;
  private readonly policy: ReconnectRetry;

  constructor(
    private readonly o: JournalForBotOptions,
    private readonly journal: Journal,
  ) {
    this.policy = o.reconnectRetry ?? RECONNECT_RETRY;
  }

  gate(engine: Engine): ReconcilerGate {
    return new ReconcilerGate(engine.conditions, this.policy.attempts);
  }

  /** A reconnect whose connection was lost at `lostAtMs`: reconcile after the settle pause. */
  onReconnect(engine: Engine, lostAtMs: number): void {
    // A drop while an earlier reconnect is still unreconciled: cover both windows.
    const since = Math.min(lostAtMs, this.unreconciledSince ?? lostAtMs);
    this.unreconciledSince = since;
    // Until a reconciliation reads the history of this window, a restart reads back to it.
    this.journal.openFillGap(this.o.account, since);
    this.retries?.abort();
    // Intents wait from now: the reconciliation counts as running through its settle pause.
    this.gate(engine).running();
    void this.o.clock
      .sleep(this.o.settleMs ?? 100)
      .then(() => this.retryUntilReconciled(engine, since))
      .catch(() => undefined);
  }

  /**
   * One reconnect reconciliation. `attempt` (1-based) is its place in the retries, undefined for a
   * one-off: the hint of a refusal says what comes next. Cancels the unknown orders it finds (policy cancel).
   */
  async attempt(engine: Engine, closedSinceMs: number, attempt?: number): Promise<ReconciliationReport> {
    const gate = this.gate(engine);
    gate.running();
    try {
      const report = await reconcileForBot(this.o, this.journal, 'reconnect', closedSinceMs, engine);
      this.unreconciledSince = undefined;
      gate.succeeded();
      for (const c of report.toCancel) engine.submit(reconcileCancel(c, this.o.clock.now()));
      return report;
    } catch (error) {
      const failure = `reconciliation after a reconnect failed (${error instanceof Error ? error.message : String(error)})`;
      gate.failed(failure, attempt);
      this.o.log.error({ err: error, attempt }, failure);
      throw error;
    }
  }

  stop(): void {
    this.retries?.abort();
  }

  /**
   * The reconnect reconciliation, retried with backoff while it fails: trading stays paused with
   * the reason (intents refused, not queued: a strategy should not act on stale intents), and
   * resumes at the first attempt that succeeds. Once the attempts run out, the next reconnect
   * tries again.
   */
  private async retryUntilReconciled(engine: Engine, closedSinceMs: number): Promise<void> {
    this.retries?.abort();
    const controller = new AbortController();
    this.retries = controller;
    const { attempts, baseMs, maxMs } = this.policy;
    try {
      await withRetry((attempt) => this.attempt(engine, closedSinceMs, attempt), {
        attempts,
        delayMs: exponentialBackoff({ baseMs, maxMs }),
        shouldRetry: () => !controller.signal.aborted,
        signal: controller.signal,
        clock: this.o.clock,
        onRetry: ({ attempt, delayMs }) =>
          this.o.log.warn(
            { attempt, attempts, delayMs },
            `reconciliation after a reconnect: retrying in ${delayMs} ms (attempt ${attempt + 1} of ${attempts})`,
          ),
      });
    } catch (error) {
      if (controller.signal.aborted) return;
      this.o.log.error(
        { err: error, attempts },
        `trading stays paused: reconciliation failed ${attempts} times: the bot retries at the next reconnect`,
      );
    } finally {
      if (this.retries === controller) this.retries = undefined;
    }
  }
}

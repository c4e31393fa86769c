import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { exponentialBackoff, withRetry } from '../../core/withRetry.js';
import type { VenueSnapshot } from '../../venue/state/venueSnapshot.js';
import type { TradingConditions } from '../admission/tradingConditions.js';
import { RoundSnapshot } from './roundSnapshot.js';

/** Attempts of one part after a reconnect (the first included; may be infinite) and their exponential backoff. */
export interface ReconnectRetry {
  readonly attempts: number;
  readonly baseMs: number;
  readonly maxMs: number;
}

/**
 * One reconciliation that must succeed after every reconnect before trading resumes (the engine's
 * REST snapshot, the journal's history). It reports each attempt to the trading conditions itself,
 * since the reason of a failure and what comes next are its own; the reconciler runs and retries it.
 */
export interface ReconnectPart {
  /** Its name among the reconcilers of the trading conditions. */
  readonly name: string;
  /** What it is, in the log lines of its retries (`<label>: retrying in …`). */
  readonly label: string;
  readonly retry: ReconnectRetry;
  /** Pause after the reconnect before the first attempt; none at all (not even a zero-length one) when absent. */
  readonly settleMs?: number;
  readonly log: Logger;
  /**
   * At the reconnect, before the settle pause: `lostAtMs` starts the window the attempts must
   * cover; `cause` says whether the connection was lost or only frames on it.
   */
  readonly reconnected?: (lostAtMs: number, cause: ReconcileCause) => void;
  /** Markets its reconciliation compares beside the engine's: the round's one read covers them too. */
  readonly markets?: () => readonly number[];
  /**
   * One attempt (1-based); throws when it failed. `round` aborts once a newer reconnect supersedes
   * this one; `venue` is the round's one read of the venue, shared by every part.
   */
  readonly attempt: (attempt: number, round: AbortSignal, venue: RoundSnapshot) => Promise<unknown>;
}

/**
 * Why a round of reconciliation runs: the connection came back; frames were lost on one that
 * stayed up; or a reconnected stream began vouching (its first oracle frame) only after the
 * reconnect's round began (`StreamCoverage`: a stall right after a reconnect would show no gap).
 */
export type ReconcileCause = 'reconnect' | 'frames_lost' | 'stream_start';

/** A part and the retries of its latest reconnect (aborted by a newer one, its removal and the engine's stop). */
interface PartEntry {
  readonly part: ReconnectPart;
  round: AbortController | undefined;
}

/**
 * The one reconciliation after a reconnect: each part (the engine's first, then those added later,
 * in that order) counts as running from the reconnect, waits its settle pause, and is retried with
 * backoff through `withRetry` while it fails, by its own policy. A newer reconnect aborts the
 * retries of an older one (its round wins), and nothing runs or is retried once the engine stops.
 */
export class ReconnectReconciler {
  private readonly entries: PartEntry[] = [];

  constructor(
    private readonly o: {
      readonly conditions: TradingConditions;
      readonly clock: Clock;
      /** The engine's stop. */
      readonly signal: AbortSignal;
      /** Reads the venue (with the nonce state) in these markets: once per reconnect, shared by the parts. */
      readonly readVenue: (markets: readonly number[]) => Promise<VenueSnapshot>;
    },
  ) {
    o.signal.addEventListener('abort', () => this.entries.forEach((e) => e.round?.abort()), { once: true });
  }

  /** Registers a part with the trading conditions; returns its removal, which aborts its retries. */
  add(part: ReconnectPart): () => void {
    this.o.conditions.registerReconciler(part.name);
    const entry: PartEntry = { part, round: undefined };
    this.entries.push(entry);
    return () => {
      entry.round?.abort();
      const at = this.entries.indexOf(entry);
      if (at >= 0) this.entries.splice(at, 1);
    };
  }

  /**
   * The connection is back after a loss at `lostAtMs` (or, another `cause`, it stayed up but what
   * came since then may be missing): every part reconciles the window since. Resolves once each
   * part has succeeded, run out of attempts or been aborted (never rejects).
   */
  async reconnected(lostAtMs: number, cause: ReconcileCause = 'reconnect'): Promise<void> {
    if (this.o.signal.aborted) return;
    this.o.conditions.reconcileRound({ quiet: cause !== 'reconnect' });
    const venue = new RoundSnapshot(() => this.o.readVenue(this.markets()));
    await Promise.all(this.entries.map((entry) => this.runPart(entry, { lostAtMs, cause }, venue)));
  }

  /** Every market a part compares, each once, in the order the parts name them. */
  private markets(): number[] {
    return [...new Set(this.entries.flatMap((e) => e.part.markets?.() ?? []))];
  }

  private async runPart(
    entry: PartEntry,
    window: { readonly lostAtMs: number; readonly cause: ReconcileCause },
    venue: RoundSnapshot,
  ): Promise<void> {
    const { part } = entry;
    entry.round?.abort();
    const round = new AbortController();
    entry.round = round;
    part.reconnected?.(window.lostAtMs, window.cause);
    // Intents wait from now: the part counts as running through its settle pause.
    this.o.conditions.reconcileStarted(part.name);
    const { attempts } = part.retry;
    try {
      if (part.settleMs !== undefined) await this.o.clock.sleep(part.settleMs, round.signal);
      await this.retry(part, round.signal, venue);
    } catch (error) {
      // Aborted: superseded by a newer reconnect, removed, or the engine stopped. Else out of attempts.
      if (round.signal.aborted) return;
      part.log.error(
        { err: error, attempts },
        `trading stays paused: ${part.label} failed ${attempts} times: the bot retries at the next reconnect`,
      );
    } finally {
      if (entry.round === round) entry.round = undefined;
    }
  }

  private retry(part: ReconnectPart, round: AbortSignal, venue: RoundSnapshot): Promise<unknown> {
    const { attempts, baseMs, maxMs } = part.retry;
    return withRetry((attempt) => part.attempt(attempt, round, venue), {
      attempts,
      delayMs: exponentialBackoff({ baseMs, maxMs }),
      shouldRetry: () => !round.aborted,
      signal: round,
      clock: this.o.clock,
      onRetry: ({ attempt, delayMs, error }) =>
        part.log.warn(
          { err: error, attempt, attempts, delayMs },
          `${part.label}: retrying in ${delayMs} ms (attempt ${attempt + 1}${Number.isFinite(attempts) ? ` of ${attempts}` : ''})`,
        ),
    });
  }
}

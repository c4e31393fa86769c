import type { Clock } from '../../core/clock.js';
import { detach } from '../../core/detach.js';
import type { ReconcileCause } from './reconnectReconciler.js';

/** The rounds run on a connection that stayed up. */
export type QuietCause = Exclude<ReconcileCause, 'reconnect'>;

/** Least time from one round's start to the next's: the REST reads of back-to-back rounds stay bounded. */
export const LOST_FRAME_ROUND_SPACING_MS = 1_000;

/**
 * The reconciliations after lost frames, one at a time. A gap found while one runs does not abort
 * it: on a stream that keeps losing frames no round would ever finish, and intents would wait for
 * ever. The new gap's window is kept instead and reconciled once the running round ends, from the
 * earliest loss not covered yet (the running round's reads may predate it), and no sooner than
 * `LOST_FRAME_ROUND_SPACING_MS` after the last round began: intents go meanwhile.
 */
export class LostFrameRounds {
  private running = false;
  private pendingSinceMs: number | undefined;
  /** A gap among the windows pending makes the round `frames_lost`; `stream_start` alone stays so. */
  private pendingCause: QuietCause = 'stream_start';

  constructor(
    private readonly o: {
      /** One round from `sinceMs`: resolves when every part has succeeded, given up or been aborted. */
      readonly round: (sinceMs: number, cause: QuietCause) => Promise<void>;
      readonly clock: Clock;
      /** The engine's stop: no round starts after it. */
      readonly signal: AbortSignal;
      readonly onError: (error: unknown) => void;
    },
  ) {}

  /** Frames since `sinceMs` were lost (`stream_start`: may have been, before a connection's streams were counted). */
  lost(sinceMs: number, cause: QuietCause = 'frames_lost'): void {
    if (this.pendingSinceMs === undefined) this.pendingCause = cause;
    else if (cause === 'frames_lost') this.pendingCause = cause;
    this.pendingSinceMs = Math.min(sinceMs, this.pendingSinceMs ?? sinceMs);
    if (this.running) return;
    this.running = true;
    detach(this.drain(), this.o.onError);
  }

  private async drain(): Promise<void> {
    const { clock, signal } = this.o;
    try {
      let startedMs = Number.NEGATIVE_INFINITY;
      while (this.pendingSinceMs !== undefined && !signal.aborted) {
        const wait = startedMs + LOST_FRAME_ROUND_SPACING_MS - clock.now();
        if (wait > 0) await clock.sleep(wait, signal);
        // The earliest loss so far, those found during the wait included.
        const since = this.pendingSinceMs ?? Number.POSITIVE_INFINITY;
        const cause = this.pendingCause;
        this.pendingSinceMs = undefined;
        startedMs = clock.now();
        await this.o.round(since, cause);
      }
    } catch (error) {
      if (!signal.aborted) throw error;
    } finally {
      this.running = false;
    }
  }
}

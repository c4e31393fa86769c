import { detach } from '../../core/detach.js';

/**
 * The reconciliations after lost frames, one at a time. A gap found while one runs does not abort
 * it: on a stream that keeps losing frames no round would ever finish, and intents would wait for
 * ever. The new gap's window is kept instead and reconciled once the running round ends, from the
 * earliest loss not covered yet (the running round's reads may predate it).
 */
export class LostFrameRounds {
  private running = false;
  private pendingSinceMs: number | undefined;

  constructor(
    /** One round from `sinceMs`: resolves when every part has succeeded, given up or been aborted. */
    private readonly round: (sinceMs: number) => Promise<void>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Frames since `sinceMs` were lost. */
  lost(sinceMs: number): void {
    this.pendingSinceMs = Math.min(sinceMs, this.pendingSinceMs ?? sinceMs);
    if (this.running) return;
    this.running = true;
    detach(this.drain(), this.onError);
  }

  private async drain(): Promise<void> {
    try {
      for (let since = this.pendingSinceMs; since !== undefined; since = this.pendingSinceMs) {
        this.pendingSinceMs = undefined;
        await this.round(since);
      }
    } finally {
      this.running = false;
    }
  }
}

import type { Clock } from '../../core/clock.js';
import { detach } from '../../core/detach.js';

export interface OutboundFrameQueueOptions {
  readonly clock: Clock;
  /** The venue allows 10 client frames per second. */
  readonly maxFrames?: number;
  readonly windowMs?: number;
}

/**
 * Holds outgoing frames so that no more than `maxFrames` leave in any `windowMs` window (a
 * sliding window, so a burst after a quiet second is still capped). Frames leave in order. One
 * queue per connection: `close()` drops what is left, since a new connection resubscribes anew.
 */
export class OutboundFrameQueue {
  private readonly queue: string[] = [];
  private readonly sentAt: number[] = [];
  private readonly maxFrames: number;
  private readonly windowMs: number;
  private readonly abort = new AbortController();
  private pumping = false;

  constructor(
    private readonly deliver: (text: string) => void,
    private readonly options: OutboundFrameQueueOptions,
  ) {
    this.maxFrames = options.maxFrames ?? 10;
    this.windowMs = options.windowMs ?? 1000;
  }

  push(text: string): void {
    if (this.abort.signal.aborted) return;
    this.queue.push(text);
    // The pump fails only when close() aborts its wait: the frames belong to a connection that is gone.
    if (!this.pumping) detach(this.pump(), () => undefined);
  }

  get pending(): number {
    return this.queue.length;
  }

  close(): void {
    this.queue.length = 0;
    this.abort.abort(new Error('outbound queue closed'));
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      while (this.queue.length > 0 && !this.abort.signal.aborted) {
        const waitMs = this.waitBeforeNext();
        if (waitMs > 0) {
          await this.options.clock.sleep(waitMs, this.abort.signal);
          continue;
        }
        const text = this.queue.shift();
        if (text === undefined) break;
        this.sentAt.push(this.options.clock.now());
        if (this.sentAt.length > this.maxFrames) this.sentAt.shift();
        this.deliver(text);
      }
    } finally {
      this.pumping = false;
    }
  }

  private waitBeforeNext(): number {
    if (this.sentAt.length < this.maxFrames) return 0;
    const oldest = this.sentAt[0] ?? 0;
    return oldest + this.windowMs - this.options.clock.now();
  }
}

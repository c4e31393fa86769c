import type { Clock } from '../../core/clock.js';

/**
 * At most `limit` frames in any window of `windowMs` (venue-facts: 10 client frames per second).
 * Remembers the times of the last `limit` accepted frames in a ring, so memory is constant and
 * the check is exact rather than a bucket approximation.
 */
export class InboundRateLimiter {
  private readonly accepted: number[];
  private next = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
  ) {
    this.accepted = new Array<number>(limit).fill(Number.NEGATIVE_INFINITY);
  }

  /** Records and allows the frame, or refuses it without recording. */
  allow(): boolean {
    const now = this.clock.now();
    const oldest = this.accepted[this.next] ?? Number.NEGATIVE_INFINITY;
    if (now - oldest < this.windowMs) return false;
    this.accepted[this.next] = now;
    this.next = (this.next + 1) % this.limit;
    return true;
  }
}

import { systemClock, type Clock } from '../../core/clock.js';
import { InvalidValueError } from '../../core/invalidValueError.js';

/** What the REST transport needs from a client-side rate limiter. */
export interface RequestLimiter {
  /** Resolves when the request may be sent; rejects with the signal's reason when aborted. */
  take(signal?: AbortSignal): Promise<void>;
  /**
   * Takes a grant when the request may be sent now, as `take` would have granted it, and says so;
   * false, taking nothing, when it would have to wait (then `take`). Saves a request that need not
   * wait its trip through two promises.
   */
  takeNow?(): boolean;
}

/**
 * "At most `limit` requests in any `windowMs`", exactly the venue's REST rule (500 per 10 s per
 * IP), without the token bucket's trade-off between burst and rate: a burst of up to `limit`
 * goes out at once, and request n is never sent before request n - limit plus the window.
 * Grants are scheduled in arrival order; a caller that aborts while waiting keeps its slot (so the
 * schedule never has to be rewritten and the limit holds even then).
 */
export class SlidingWindowLimiter implements RequestLimiter {
  private readonly grants: number[];
  private next = 0;
  private count = 0;
  private readonly clock: Clock;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    clock: Clock = systemClock,
  ) {
    if (!Number.isSafeInteger(limit) || limit < 1)
      throw new InvalidValueError('limit', limit, 'a whole number of at least 1');
    if (!(windowMs > 0)) throw new InvalidValueError('windowMs', windowMs, 'a positive number of milliseconds');
    this.grants = new Array<number>(limit).fill(Number.NEGATIVE_INFINITY);
    this.clock = clock;
  }

  /** When a request arriving now would be granted (ms on the clock). */
  private schedule(): number {
    const at = this.grantAt(this.clock.now());
    this.grants[this.next] = at;
    this.next = (this.next + 1) % this.limit;
    this.count++;
    return at;
  }

  /** The grant a request arriving at `now` would take, without taking it. */
  private grantAt(now: number): number {
    // The slot this request takes last held the grant `limit` requests ago.
    const earliest = this.grants[this.next]! + this.windowMs;
    const previous =
      this.count === 0 ? Number.NEGATIVE_INFINITY : this.grants[(this.next + this.limit - 1) % this.limit]!;
    return Math.max(now, earliest, previous);
  }

  async take(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    const at = this.schedule();
    const wait = at - this.clock.now();
    if (wait > 0) await this.clock.sleep(wait, signal);
  }

  takeNow(): boolean {
    const now = this.clock.now();
    if (this.grantAt(now) > now) return false;
    this.schedule();
    return true;
  }
}

/**
 * The venue's REST limit with a margin: arrival times at the venue jitter by network latency, so
 * the client window is a little longer than the venue's 10 s.
 */
export function venueRestLimiter(clock?: Clock): SlidingWindowLimiter {
  return new SlidingWindowLimiter(500, 10_250, clock);
}

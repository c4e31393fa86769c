import { systemClock, type Clock } from '../../core/clock.js';
import { InvalidValueError } from '../../core/invalidValueError.js';

export interface TokenBucketOptions {
  /** Burst size: tokens available at once. */
  readonly capacity: number;
  /** Tokens added per `refillIntervalMs`, continuously. */
  readonly refillTokens: number;
  readonly refillIntervalMs: number;
  readonly clock?: Clock;
}

/**
 * The venue allows 500 REST requests per 10 s per IP. A bucket of C tokens refilled at R per 10 s
 * can grant C + R within any 10 s window, so C + R = 500 keeps every window legal whatever the
 * venue's window alignment; a burst of 50 keeps 450 per 10 s of sustained throughput.
 */
export const VENUE_REST_RATE_LIMIT: TokenBucketOptions = { capacity: 50, refillTokens: 450, refillIntervalMs: 10_000 };

/**
 * Client-side rate limiting. Callers queue in arrival order: each `take` reserves a token (the
 * balance may go negative) and sleeps on the injected clock until the refill covers it.
 */
export class TokenBucket {
  private readonly capacity: number;
  private readonly ratePerMs: number;
  private readonly clock: Clock;
  private tokens: number;
  private lastRefill: number;

  constructor(options: TokenBucketOptions) {
    if (!(options.capacity >= 1)) throw new InvalidValueError('capacity', options.capacity, 'at least 1');
    if (!(options.refillTokens > 0)) throw new InvalidValueError('refillTokens', options.refillTokens, 'a positive number');
    if (!(options.refillIntervalMs > 0)) throw new InvalidValueError('refillIntervalMs', options.refillIntervalMs, 'a positive number');
    this.capacity = options.capacity;
    this.ratePerMs = options.refillTokens / options.refillIntervalMs;
    this.clock = options.clock ?? systemClock;
    this.tokens = options.capacity;
    this.lastRefill = this.clock.now();
  }

  private refill(): void {
    const now = this.clock.now();
    if (now > this.lastRefill) {
      this.tokens = Math.min(this.capacity, this.tokens + (now - this.lastRefill) * this.ratePerMs);
      this.lastRefill = now;
    }
  }

  /** Tokens available now (negative while callers are queued). */
  available(): number {
    this.refill();
    return this.tokens;
  }

  /** Takes a token if one is free right now, without queueing. */
  tryTake(): boolean {
    this.refill();
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Resolves once a token is granted; an abort while queued gives the reservation back. */
  async take(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    this.refill();
    this.tokens -= 1;
    if (this.tokens >= 0) return;
    const waitMs = Math.ceil(-this.tokens / this.ratePerMs);
    try {
      await this.clock.sleep(waitMs, signal);
    } catch (error) {
      this.tokens += 1;
      throw error;
    }
  }
}

/**
 * Counts requests per key in fixed windows (venue-facts: 500 REST requests per 10 s per IP,
 * leverage updates 1 per second per account). Old windows are dropped as keys come back.
 */
export class FixedWindowLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** True when the request fits the window (and counts it), false when over the limit. */
  take(key: string, nowMs: number): boolean {
    const window = this.windows.get(key);
    if (window === undefined || nowMs - window.start >= this.windowMs) {
      if (this.windows.size > 10_000) this.sweep(nowMs);
      this.windows.set(key, { start: nowMs, count: 1 });
      return true;
    }
    if (window.count >= this.limit) return false;
    window.count += 1;
    return true;
  }

  /** Milliseconds until `key`'s current window ends (0 when it has none): a 429's Retry-After. */
  msUntilReset(key: string, nowMs: number): number {
    const window = this.windows.get(key);
    return window === undefined ? 0 : Math.max(0, window.start + this.windowMs - nowMs);
  }

  private sweep(nowMs: number): void {
    for (const [key, window] of this.windows) if (nowMs - window.start >= this.windowMs) this.windows.delete(key);
  }
}

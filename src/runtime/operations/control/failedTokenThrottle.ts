/**
 * Counts requests with a missing or wrong control token per remote address, and answers an
 * address that failed `limit` times within `windowMs` with 429 until that window has passed. The
 * valid token is compared first and never throttled (every local process shares 127.0.0.1: the
 * operator must not be locked out by another's failures), so what stands against guessing is the
 * token's length (16 characters at least; `openssl rand -hex 32` gives 64); this keeps a flood of
 * failures out of the log. Bounded: at most `maxAddresses` are remembered (the
 * oldest go first), so a flood of addresses cannot grow it.
 */
export class FailedTokenThrottle {
  private readonly failures = new Map<string, { count: number; since: number }>();

  constructor(
    private readonly now: () => number,
    private readonly limit = 5,
    private readonly windowMs = 60_000,
    private readonly maxAddresses = 1024,
  ) {}

  /** Milliseconds until `remote` may try again; 0 when it may now. */
  retryAfterMs(remote: string): number {
    const entry = this.current(remote);
    if (entry === undefined || entry.count < this.limit) return 0;
    return Math.max(1, entry.since + this.windowMs - this.now());
  }

  /** Records a failure; returns how many `remote` has in the current window. */
  recordFailure(remote: string): number {
    const entry = this.current(remote) ?? { count: 0, since: this.now() };
    entry.count++;
    this.failures.delete(remote);
    this.failures.set(remote, entry);
    if (this.failures.size > this.maxAddresses) {
      const oldest = this.failures.keys().next().value;
      if (oldest !== undefined) this.failures.delete(oldest);
    }
    return entry.count;
  }

  private current(remote: string): { count: number; since: number } | undefined {
    const entry = this.failures.get(remote);
    if (entry === undefined) return undefined;
    if (this.now() - entry.since < this.windowMs) return entry;
    this.failures.delete(remote);
    return undefined;
  }
}

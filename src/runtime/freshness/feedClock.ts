import { performance } from 'node:perf_hooks';
import type { Clock } from '../../core/clock.js';

/** A stream the bot follows: a market channel (per market) or an account channel (marketId undefined). */
export type FeedName = 'mark' | 'book' | 'trades' | 'orders' | 'positions' | 'fills' | 'account';

export interface FeedReading {
  readonly channel: FeedName;
  readonly marketId?: number;
  /** Engine clock when the last message arrived; undefined while none has. */
  readonly lastMs?: number;
  /** Since the last message, or since the bot began following the stream when none came yet. */
  readonly ageMs: number;
}

interface Entry {
  readonly channel: FeedName;
  readonly marketId: number | undefined;
  readonly sinceMs: number;
  lastMs: number | undefined;
  /** performance.now() of the last message, for sub-millisecond latencies (tick-to-trade). */
  lastHr: number | undefined;
}

/**
 * When each followed stream last spoke. One place records it and everything reads it: the
 * strategies' freshness budgets, the status API, the feed-age gauges and tick-to-trade. A stream
 * that never spoke is as old as the time since the bot began following it, so a feed that is dead
 * from the start is stale too.
 */
export class FeedClock {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly clock: Clock) {}

  /** Starts the age of a stream (idempotent). */
  follow(channel: FeedName, marketId?: number): void {
    this.entryOf(channel, marketId);
  }

  touch(channel: FeedName, marketId?: number): void {
    const entry = this.entryOf(channel, marketId);
    entry.lastMs = this.clock.now();
    entry.lastHr = performance.now();
  }

  /** Undefined for a stream not followed. */
  ageMs(channel: FeedName, marketId?: number): number | undefined {
    const entry = this.entries.get(keyOf(channel, marketId));
    return entry === undefined ? undefined : this.clock.now() - (entry.lastMs ?? entry.sinceMs);
  }

  /** performance.now() of the stream's last message, if any. */
  lastHr(channel: FeedName, marketId?: number): number | undefined {
    return this.entries.get(keyOf(channel, marketId))?.lastHr;
  }

  readings(): FeedReading[] {
    const now = this.clock.now();
    return [...this.entries.values()].map((e) => ({
      channel: e.channel,
      ...(e.marketId === undefined ? {} : { marketId: e.marketId }),
      ...(e.lastMs === undefined ? {} : { lastMs: e.lastMs }),
      ageMs: now - (e.lastMs ?? e.sinceMs),
    }));
  }

  /** The stream's entry, its age started now when it was not followed yet. */
  private entryOf(channel: FeedName, marketId: number | undefined): Entry {
    const key = keyOf(channel, marketId);
    let entry = this.entries.get(key);
    if (entry === undefined) {
      entry = { channel, marketId, sinceMs: this.clock.now(), lastMs: undefined, lastHr: undefined };
      this.entries.set(key, entry);
    }
    return entry;
  }
}

function keyOf(channel: FeedName, marketId: number | undefined): string {
  return marketId === undefined ? channel : `${channel}:${marketId}`;
}

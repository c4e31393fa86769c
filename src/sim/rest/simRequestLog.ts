/** One request the simulator's REST side answered: its method and path (no query), and when it came. */
export interface SimRequestEntry {
  readonly method: string;
  readonly path: string;
  readonly atMs: number;
}

/**
 * The simulator's request log: the latest requests (up to `kept`, the oldest dropped first), so a
 * test or an operator can count what a client read (how many times the open orders were read per
 * reconnect, say) without a proxy in between.
 */
export class SimRequestLog {
  private readonly entries: SimRequestEntry[] = [];
  private dropped = 0;

  constructor(private readonly kept: number) {}

  note(method: string, url: string, atMs: number): void {
    const query = url.indexOf('?');
    this.entries.push({ method, path: query < 0 ? url : url.slice(0, query), atMs });
    if (this.entries.length > this.kept) {
      this.entries.shift();
      this.dropped += 1;
    }
  }

  /** The requests kept, oldest first, those since `sinceMs` when given. */
  list(sinceMs = Number.NEGATIVE_INFINITY): SimRequestEntry[] {
    return this.entries.filter((e) => e.atMs >= sinceMs);
  }

  /** How many requests of each `METHOD path` were kept (since `sinceMs` when given). */
  counts(sinceMs?: number): Map<string, number> {
    const counts = new Map<string, number>();
    for (const e of this.list(sinceMs)) {
      const key = `${e.method} ${e.path}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return counts;
  }

  /** Requests older than the ones kept, dropped to bound the log. */
  get droppedCount(): number {
    return this.dropped;
  }
}

import { BoundedLog } from '../exchange/boundedLog.js';

/** One request the simulator's REST side answered: its method and path (no query), and when it came. */
export interface SimRequestEntry {
  readonly method: string;
  readonly path: string;
  readonly atMs: number;
}

/**
 * The simulator's request log: the latest requests (up to `kept`, the oldest dropped first), so a
 * test or an operator can count what a client read (how many times the open orders were read per
 * reconnect, say) without a proxy in between. Every request is noted, so a note is O(1): the log
 * is a `BoundedLog`, not an array shifted once full (at 20,000 entries a shift moved the whole
 * array, several microseconds per request).
 */
export class SimRequestLog {
  private readonly entries: BoundedLog<SimRequestEntry>;
  private dropped = 0;

  constructor(kept: number) {
    this.entries = new BoundedLog<SimRequestEntry>(kept, () => {
      this.dropped += 1;
    });
  }

  note(method: string, url: string, atMs: number): void {
    const query = url.indexOf('?');
    this.entries.push({ method, path: query < 0 ? url : url.slice(0, query), atMs });
  }

  /** The requests kept, oldest first, those since `sinceMs` when given. */
  list(sinceMs = Number.NEGATIVE_INFINITY): SimRequestEntry[] {
    const out: SimRequestEntry[] = [];
    for (const e of this.entries.oldestFirst()) if (e.atMs >= sinceMs) out.push(e);
    return out;
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

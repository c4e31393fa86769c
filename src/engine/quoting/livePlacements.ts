import type { PlaceLimitIntent } from '../intents/intents.js';

/**
 * The limit intent behind each live order of this process, by intent id: what a replacement keeps
 * of the old order (time in force, post-only, reduce-only, self-trade mode, the rounding the
 * strategy named) and what a quote target compares on the grid. Forgotten when the order ends.
 */
export class LivePlacements {
  private readonly byIntent = new Map<string, PlaceLimitIntent>();
  private changes = 0;

  /** Moves with every placement remembered or forgotten: what was read with them is then stale. */
  get revision(): number {
    return this.changes;
  }

  remember(intent: PlaceLimitIntent): void {
    this.changes++;
    this.byIntent.set(intent.intentId, intent);
  }

  get(intentId: string): PlaceLimitIntent | undefined {
    return this.byIntent.get(intentId);
  }

  forget(intentId: string): void {
    this.changes++;
    this.byIntent.delete(intentId);
  }

  get size(): number {
    return this.byIntent.size;
  }
}

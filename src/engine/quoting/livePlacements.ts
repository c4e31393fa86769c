import type { PlaceLimitIntent } from '../intents/intents.js';

/**
 * The limit intent behind each live order of this process, by intent id: what a replacement keeps
 * of the old order (time in force, post-only, reduce-only, self-trade mode, the rounding the
 * strategy named) and what a quote target compares on the grid. Forgotten when the order ends.
 */
export class LivePlacements {
  private readonly byIntent = new Map<string, PlaceLimitIntent>();

  remember(intent: PlaceLimitIntent): void {
    this.byIntent.set(intent.intentId, intent);
  }

  get(intentId: string): PlaceLimitIntent | undefined {
    return this.byIntent.get(intentId);
  }

  forget(intentId: string): void {
    this.byIntent.delete(intentId);
  }

  get size(): number {
    return this.byIntent.size;
  }
}

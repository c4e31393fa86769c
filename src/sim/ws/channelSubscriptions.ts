import type { ChannelName } from '../../venue/schemas/wsFramesFields.js';

/** undefined = all markets. */
export type MarketFilter = ReadonlySet<number> | undefined;

/**
 * One connection's subscriptions: a channel maps to its market filter. A second subscribe to the
 * same channel replaces the filter (the client sends the union of its consumers' markets each
 * time, and resubscribes for a fresh orderbook snapshot).
 */
export class ChannelSubscriptions {
  private readonly filters = new Map<ChannelName, MarketFilter>();

  set(channel: ChannelName, marketIds: readonly number[]): void {
    this.filters.set(channel, marketIds.length === 0 ? undefined : new Set(marketIds));
  }

  delete(channel: ChannelName): void {
    this.filters.delete(channel);
  }

  has(channel: ChannelName): boolean {
    return this.filters.has(channel);
  }

  /** True when subscribed to `channel` and the filter admits `marketId`. */
  wants(channel: ChannelName, marketId: number): boolean {
    if (!this.filters.has(channel)) return false;
    const filter = this.filters.get(channel);
    return filter === undefined || filter.has(marketId);
  }

  filter(channel: ChannelName): MarketFilter {
    return this.filters.get(channel);
  }

  clear(): void {
    this.filters.clear();
  }

  get size(): number {
    return this.filters.size;
  }
}

import type { ChannelMessage } from '../schemas/wsFrames.js';
import type { ChannelName } from '../schemas/wsFramesFields.js';
import { selectMarkets } from './selectMarkets.js';

/** One local consumer of a channel: a shared Observable's inner subscription, or an internal one. */
export interface ChannelSink {
  readonly channel: ChannelName;
  /** undefined = all markets. */
  readonly marketIds: ReadonlySet<number> | undefined;
  /**
   * false for a consumer that reads only that a message came, not what it says (the oracle
   * heartbeat): its markets then widen the wire subscription but not what is decoded.
   */
  readonly readsContent?: false;
  next(message: ChannelMessage): void;
  error(error: unknown): void;
  complete(): void;
}

/**
 * Which local consumers each channel has. The wire holds one subscription per channel carrying
 * the union of their market filters (unsubscribe takes only the channel name), and each message
 * is narrowed per consumer on delivery.
 */
export class ChannelRegistry {
  private readonly byChannel = new Map<ChannelName, Set<ChannelSink>>();
  /** `decodedMarkets` per channel, worked out once per change of the consumers (null: all markets). */
  private readonly decoded = new Map<ChannelName, ReadonlySet<number> | null>();

  add(sink: ChannelSink): void {
    this.decoded.delete(sink.channel);
    let sinks = this.byChannel.get(sink.channel);
    if (sinks === undefined) {
      sinks = new Set();
      this.byChannel.set(sink.channel, sinks);
    }
    sinks.add(sink);
  }

  remove(sink: ChannelSink): void {
    this.decoded.delete(sink.channel);
    const sinks = this.byChannel.get(sink.channel);
    if (sinks === undefined) return;
    sinks.delete(sink);
    if (sinks.size === 0) this.byChannel.delete(sink.channel);
  }

  has(channel: ChannelName): boolean {
    return this.byChannel.has(channel);
  }

  channels(): ChannelName[] {
    return [...this.byChannel.keys()];
  }

  /** Sorted union of the consumers' markets; undefined when any consumer wants all markets. */
  requestedMarkets(channel: ChannelName): number[] | undefined {
    const sinks = this.byChannel.get(channel);
    const union = sinks === undefined ? null : unionOfMarkets(sinks);
    return union === null ? undefined : [...union].sort((a, b) => a - b);
  }

  /**
   * The markets whose messages on `channel` some consumer reads: the union of the reading
   * consumers' filters, undefined when one of them wants all markets. Every consumer is narrowed to
   * its own markets on delivery, so a message decoded for these markets only reaches each one
   * as the whole message would. Asked on every frame: kept until the consumers change.
   */
  decodedMarkets(channel: ChannelName): ReadonlySet<number> | undefined {
    let markets = this.decoded.get(channel);
    if (markets === undefined) {
      markets = unionOfMarkets([...(this.byChannel.get(channel) ?? [])].filter((s) => s.readsContent !== false));
      this.decoded.set(channel, markets);
    }
    return markets ?? undefined;
  }

  deliver(message: ChannelMessage): void {
    const sinks = this.byChannel.get(message.channel);
    if (sinks === undefined) return;
    for (const sink of [...sinks]) {
      const selected = sink.marketIds === undefined ? message : selectMarkets(message, sink.marketIds);
      if (selected !== undefined) sink.next(selected);
    }
  }

  /** Errors (and drops) every consumer of `channel`. */
  fail(channel: ChannelName, error: unknown): void {
    const sinks = this.byChannel.get(channel);
    if (sinks === undefined) return;
    this.byChannel.delete(channel);
    this.decoded.delete(channel);
    for (const sink of sinks) sink.error(error);
  }

  completeAll(): void {
    const all = [...this.byChannel.values()].flatMap((s) => [...s]);
    this.byChannel.clear();
    this.decoded.clear();
    for (const sink of all) sink.complete();
  }
}

/** The union of the consumers' markets; null when one of them wants all. */
function unionOfMarkets(sinks: Iterable<ChannelSink>): Set<number> | null {
  const union = new Set<number>();
  for (const sink of sinks) {
    if (sink.marketIds === undefined) return null;
    for (const id of sink.marketIds) union.add(id);
  }
  return union;
}

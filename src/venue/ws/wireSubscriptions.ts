import type { SubscribeFrame, UnsubscribeFrame } from '../schemas/wsFramesClient.js';
import type { ChannelName } from '../schemas/wsFramesFields.js';

/**
 * What one connection has asked the venue for: the filter last sent per channel and the
 * subscribes still waiting for their ack (acks arrive in order per channel). Reset when the
 * connection ends, since a new connection starts with no subscriptions.
 */
export class WireSubscriptions {
  private readonly filters = new Map<ChannelName, string>();
  private readonly pendingAcks = new Map<ChannelName, { readonly requested: number[] | undefined }[]>();

  reset(): void {
    this.filters.clear();
    this.pendingAcks.clear();
  }

  has(channel: ChannelName): boolean {
    return this.filters.has(channel);
  }

  /**
   * The frame that brings the venue in line with the wanted state: `wanted` is the union of
   * market ids (undefined = all markets) or null when nobody wants the channel any more.
   */
  frameFor(
    channel: ChannelName,
    wanted: number[] | undefined | null,
    makers?: readonly string[],
  ): SubscribeFrame | UnsubscribeFrame | undefined {
    if (wanted === null) {
      return this.filters.delete(channel) ? { method: 'unsubscribe', params: { channel } } : undefined;
    }
    const key = wanted?.join(',') ?? '*';
    if (this.filters.get(channel) === key) return undefined;
    this.filters.set(channel, key);
    const acks = this.pendingAcks.get(channel) ?? [];
    acks.push({ requested: wanted });
    this.pendingAcks.set(channel, acks);
    return {
      method: 'subscribe',
      params: {
        channel,
        ...(wanted === undefined ? {} : { market_ids: wanted }),
        ...(makers === undefined ? {} : { makers: [...makers] }),
      },
    };
  }

  /** The request an arriving ack answers, or undefined if none was pending. */
  takeAck(channel: ChannelName): { readonly requested: number[] | undefined } | undefined {
    return this.pendingAcks.get(channel)?.shift();
  }

  /** The venue refused or dropped the channel's subscription: forget it so it can be sent again. */
  forget(channel: ChannelName): void {
    this.filters.delete(channel);
    this.pendingAcks.get(channel)?.shift();
  }

  /** Forget only the filter (resubscribe): the next frameFor sends a subscribe again. */
  renew(channel: ChannelName): void {
    this.filters.delete(channel);
  }
}

import { describe, expect, it } from 'vitest';
import { ChannelRegistry, type ChannelSink } from '../../../src/venue/ws/channelRegistry.js';

function sink(marketIds: readonly number[] | undefined, readsContent?: false): ChannelSink {
  return {
    channel: 'oracle',
    marketIds: marketIds === undefined ? undefined : new Set(marketIds),
    ...(readsContent === false ? { readsContent } : {}),
    next: () => undefined,
    error: () => undefined,
    complete: () => undefined,
  };
}

describe('ChannelRegistry.decodedMarkets', () => {
  it("is the union of the reading consumers' markets, a consumer that reads nothing of the message left out", () => {
    const registry = new ChannelRegistry();
    registry.add(sink(undefined, false));
    registry.add(sink([3, 1]));
    registry.add(sink([1, 7]));
    expect([...(registry.decodedMarkets('oracle') ?? [])].sort()).toEqual([1, 3, 7]);
    // The wire subscription still covers what every consumer asked for: all markets.
    expect(registry.requestedMarkets('oracle')).toBeUndefined();
  });

  it('is all markets (undefined) while a reading consumer wants all, and follows the consumers as they come and go', () => {
    const registry = new ChannelRegistry();
    const one = sink([1]);
    const all = sink(undefined);
    registry.add(one);
    expect([...(registry.decodedMarkets('oracle') ?? [])]).toEqual([1]);
    registry.add(all);
    expect(registry.decodedMarkets('oracle')).toBeUndefined();
    registry.remove(all);
    expect([...(registry.decodedMarkets('oracle') ?? [])]).toEqual([1]);
    registry.remove(one);
    expect(registry.decodedMarkets('oracle')?.size).toBe(0);
    registry.add(all);
    registry.fail('oracle', new Error('refused'));
    expect(registry.decodedMarkets('oracle')?.size).toBe(0);
  });
});

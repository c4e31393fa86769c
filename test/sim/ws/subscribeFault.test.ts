import { describe, expect, it } from 'vitest';
import { InvalidValueError } from '../../../src/core/invalidValueError.js';
import { applySubscribeFault, checkSubscribeFault } from '../../../src/sim/ws/subscribeFault.js';

const subscribe = (params: object): string => JSON.stringify({ method: 'subscribe', params });

describe('applySubscribeFault', () => {
  it('passes every frame unchanged when no fault is set', () => {
    const text = subscribe({ channel: 'orderbook', market_ids: [1] });
    expect(applySubscribeFault(text, undefined)).toBe(text);
  });

  it("drops a requested filter under 'all', and replaces it under a list", () => {
    const text = subscribe({ channel: 'orderbook', market_ids: [1, 2] });
    expect(JSON.parse(applySubscribeFault(text, { applied: 'all' }))).toEqual({
      method: 'subscribe',
      params: { channel: 'orderbook' },
    });
    expect(JSON.parse(applySubscribeFault(text, { applied: [3] }))).toEqual({
      method: 'subscribe',
      params: { channel: 'orderbook', market_ids: [3] },
    });
  });

  it('leaves all-markets subscribes, other channels, other methods and malformed text alone', () => {
    const fault = { applied: [3], channel: 'orderbook' } as const;
    for (const text of [
      subscribe({ channel: 'orderbook' }),
      subscribe({ channel: 'orderbook', market_ids: [] }),
      subscribe({ channel: 'trades', market_ids: [1] }),
      JSON.stringify({ method: 'unsubscribe', params: { channel: 'orderbook' } }),
      '{not json',
      '[1]',
    ]) {
      expect(applySubscribeFault(text, fault)).toBe(text);
    }
  });
});

describe('checkSubscribeFault', () => {
  it('refuses an empty or non-integer id list', () => {
    expect(() => checkSubscribeFault({ applied: [] })).toThrow(InvalidValueError);
    expect(() => checkSubscribeFault({ applied: [1.5] })).toThrow(InvalidValueError);
    expect(checkSubscribeFault({ applied: [2], channel: 'trades' })).toEqual({ applied: [2], channel: 'trades' });
    expect(checkSubscribeFault(undefined)).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { checkMaxOrderNotional } from '../../../src/engine/guards/maxOrderNotional.js';
import { cancelAll, closePosition, placeLimit, placeMarket } from '../../../src/engine/intents/intentBuilders.js';
import type { Intent } from '../../../src/engine/intents/intents.js';
import { base, guardState, limits, outcome } from './guardFixture.js';

describe('max order notional (limit 1000; mark of market 1 is 100)', () => {
  it.each<[string, Intent, string, ReturnType<typeof guardState>?]>([
    ['a limit order exactly at the limit', placeLimit({ ...base, side: 'buy', size: '10', price: '100' }), 'allow'],
    [
      'a limit order just above',
      placeLimit({ ...base, side: 'buy', size: '10.001', price: '100' }),
      'max_order_notional',
    ],
    [
      'valued at its limit price, not the mark',
      placeLimit({ ...base, side: 'sell', size: '5', price: '200.01' }),
      'max_order_notional',
    ],
    ['a market order valued at the mark', placeMarket({ ...base, side: 'buy', size: '10' }), 'allow'],
    [
      'a market order above the limit at the mark',
      placeMarket({ ...base, side: 'sell', size: '10.1' }),
      'max_order_notional',
    ],
    [
      'a reduce-only order above the limit',
      placeLimit({ ...base, side: 'sell', size: '11', price: '100', reduceOnly: true }),
      'max_order_notional',
    ],
    [
      'a market order without a mark',
      placeMarket({ ...base, side: 'buy', size: '1' }),
      'max_order_notional',
      guardState({ marks: [] }),
    ],
    ['a position close', closePosition(base), 'allow'],
    ['a cancel-all', cancelAll(base), 'allow'],
  ])('%s -> %s', (_name, intent, expected, state = guardState()) => {
    expect(outcome(checkMaxOrderNotional(state, intent, limits))).toBe(expected);
  });

  it('names the notional it refused', () => {
    const verdict = checkMaxOrderNotional(
      guardState(),
      placeLimit({ ...base, side: 'buy', size: '20', price: '100' }),
      limits,
    );
    expect(verdict).toMatchObject({
      kind: 'refuse',
      refusal: { value: '2000', reason: expect.stringContaining('1000') },
    });
  });
});

import { describe, expect, it } from 'vitest';
import { checkMaxOpenOrders } from '../../../src/engine/guards/maxOpenOrders.js';
import { placeLimit, placeMarket } from '../../../src/engine/intents/intentBuilders.js';
import type { Intent } from '../../../src/engine/intents/intents.js';
import { base, guardState, limits, outcome } from './guardFixture.js';

const gtc = placeLimit({ ...base, side: 'buy', size: '1', price: '99' });

describe('max open orders (limit 3, whole account)', () => {
  it.each<[string, Intent, ReturnType<typeof guardState>, string]>([
    ['two open', gtc, guardState({ openOrders: [[1, 2]] }), 'allow'],
    [
      'three open across markets',
      gtc,
      guardState({
        openOrders: [
          [1, 2],
          [2, 1],
        ],
      }),
      'max_open_orders',
    ],
    ['two open and one in flight', gtc, guardState({ openOrders: [[1, 2]], inFlight: [[2, 1]] }), 'max_open_orders'],
    [
      'an IOC limit leaves nothing on the book',
      { ...gtc, timeInForce: 'IOC' },
      guardState({ openOrders: [[1, 5]] }),
      'allow',
    ],
    ['a market order', placeMarket({ ...base, side: 'buy', size: '1' }), guardState({ openOrders: [[1, 5]] }), 'allow'],
  ])('%s -> %s', (_name, intent, state, expected) => {
    expect(outcome(checkMaxOpenOrders(state, intent, limits))).toBe(expected);
  });
});

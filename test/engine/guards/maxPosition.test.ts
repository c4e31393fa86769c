import { describe, expect, it } from 'vitest';
import { checkMaxPosition } from '../../../src/engine/guards/maxPosition.js';
import { placeLimit, placeMarket, setLeverage } from '../../../src/engine/intents/intentBuilders.js';
import type { Intent } from '../../../src/engine/intents/intents.js';
import { base, guardState, limits, outcome } from './guardFixture.js';

const long15 = guardState({ positions: [[1, { side: 'buy', size: '15' }]] });
const long25 = guardState({ positions: [[1, { side: 'buy', size: '25' }]] });

describe('max position per market after the order (limit 2000; market 2: 100; marks 100 and 10)', () => {
  it.each<[string, Intent, ReturnType<typeof guardState>, string]>([
    ['flat, buy up to the limit', placeLimit({ ...base, side: 'buy', size: '20', price: '90' }), guardState(), 'allow'],
    [
      'flat, buy past the limit (valued at the mark)',
      placeLimit({ ...base, side: 'buy', size: '20.01', price: '90' }),
      guardState(),
      'max_position',
    ],
    ['long 15, buy 5 more', placeMarket({ ...base, side: 'buy', size: '5' }), long15, 'allow'],
    ['long 15, buy 6 more', placeMarket({ ...base, side: 'buy', size: '6' }), long15, 'max_position'],
    ['long 15, sell 35 flips to short 20', placeMarket({ ...base, side: 'sell', size: '35' }), long15, 'allow'],
    [
      'long 15, sell 36 flips past the limit',
      placeMarket({ ...base, side: 'sell', size: '36' }),
      long15,
      'max_position',
    ],
    ['already too long, selling some passes', placeMarket({ ...base, side: 'sell', size: '1' }), long25, 'allow'],
    [
      'already too long, buying more is refused',
      placeMarket({ ...base, side: 'buy', size: '0.001' }),
      long25,
      'max_position',
    ],
    [
      'reduce-only always passes',
      placeMarket({ ...base, side: 'buy', size: '100', reduceOnly: true }),
      guardState(),
      'allow',
    ],
    [
      'a per-market override',
      placeMarket({ ...base, marketId: 2, side: 'buy', size: '10.1' }),
      guardState(),
      'max_position',
    ],
    ['not an order', setLeverage({ ...base, leverage: 5 }), guardState(), 'allow'],
  ])('%s -> %s', (_name, intent, state, expected) => {
    expect(outcome(checkMaxPosition(state, intent, limits))).toBe(expected);
  });
});

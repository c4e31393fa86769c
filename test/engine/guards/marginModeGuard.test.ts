import { describe, expect, it } from 'vitest';
import { checkMarginMode } from '../../../src/engine/guards/marginModeGuard.js';
import { adjustIsolatedMargin, placeLimit, setMarginMode } from '../../../src/engine/intents/intentBuilders.js';
import type { Intent } from '../../../src/engine/intents/intents.js';
import { base, guardState, outcome } from './guardFixture.js';

const short = guardState({ positions: [[1, { side: 'sell', size: '0.5' }]] });
const flatPosition = guardState({ positions: [[1, { side: 'sell', size: '0' }]] });
const busy = guardState({ inFlight: [[1, 2]] });
const isolated = guardState({ marginModes: [[1, 'isolated']] });

describe('margin-mode guard', () => {
  it.each<[string, Intent, ReturnType<typeof guardState>, string]>([
    ['switch while flat', setMarginMode({ ...base, marginMode: 'isolated' }), guardState(), 'allow'],
    ['switch with a size-0 position record', setMarginMode({ ...base, marginMode: 'isolated' }), flatPosition, 'allow'],
    [
      'switch with an open position, policy refuse',
      setMarginMode({ ...base, marginMode: 'isolated' }),
      short,
      'margin_mode_open_position',
    ],
    [
      'switch with an open position, policy close_first',
      setMarginMode({ ...base, marginMode: 'isolated', policy: 'close_first' }),
      short,
      'close_first',
    ],
    [
      'switch while actions of the market are in flight',
      setMarginMode({ ...base, marginMode: 'isolated' }),
      busy,
      'wait',
    ],
    ['switch to the mode it already has', setMarginMode({ ...base, marginMode: 'cross' }), short, 'allow'],
    ['switch in another market', setMarginMode({ ...base, marketId: 2, marginMode: 'isolated' }), short, 'allow'],
    [
      'isolated margin in cross mode',
      adjustIsolatedMargin({ ...base, amount: '10' }),
      guardState(),
      'isolated_margin_mode',
    ],
    ['isolated margin in isolated mode', adjustIsolatedMargin({ ...base, amount: '-10' }), isolated, 'allow'],
    ['orders are not its business', placeLimit({ ...base, side: 'buy', size: '1', price: '1' }), busy, 'allow'],
  ])('%s -> %s', (_name, intent, state, expected) => {
    expect(outcome(checkMarginMode(state, intent))).toBe(expected);
  });

  it('says why a switch must close first', () => {
    expect(checkMarginMode(short, setMarginMode({ ...base, marginMode: 'isolated', policy: 'close_first' }))).toEqual({
      kind: 'close_first',
      marketId: 1,
      reason: expect.stringContaining('OpenPositionExists'),
    });
  });
});

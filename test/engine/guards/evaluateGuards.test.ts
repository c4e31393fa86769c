import { describe, expect, it } from 'vitest';
import { fullBucket } from '../../../src/engine/guards/actionRateLimit.js';
import { evaluateGuards } from '../../../src/engine/guards/evaluateGuards.js';
import { ARMED_KILL_SWITCH, tripKillSwitch } from '../../../src/engine/guards/killSwitch.js';
import { closePosition, placeLimit, setMarginMode } from '../../../src/engine/intents/intentBuilders.js';
import type { Intent } from '../../../src/engine/intents/intents.js';
import { base, guardState, limits, NOW, outcome } from './guardFixture.js';

const big = placeLimit({ ...base, side: 'buy', size: '50', price: '100' });
const small = placeLimit({ ...base, side: 'buy', size: '1', price: '100' });
const empty = { actionBucket: { milliTokens: 0, updatedAtMs: NOW } };
const tripped = { killSwitch: tripKillSwitch(ARMED_KILL_SWITCH, 'manual', NOW).state };

describe('evaluateGuards returns the first refusal', () => {
  it.each<[string, Intent, ReturnType<typeof guardState>, string]>([
    ['everything fine', small, guardState(), 'allow'],
    ['kill switch before notional', big, guardState(tripped), 'kill_switch'],
    ['notional before the rate limit', big, guardState(empty), 'max_order_notional'],
    ['a rate-limited small order waits', small, guardState(empty), 'wait'],
    ['a close passes a tripped switch', closePosition(base), guardState(tripped), 'allow'],
    ['open orders before the rate limit', small, guardState({ ...empty, openOrders: [[1, 3]] }), 'max_open_orders'],
    [
      'margin switch with a position',
      setMarginMode({ ...base, marginMode: 'isolated' }),
      guardState({ positions: [[1, { side: 'buy', size: '1' }]] }),
      'margin_mode_open_position',
    ],
  ])('%s -> %s', (_name, intent, state, expected) => {
    expect(outcome(evaluateGuards(state, intent, limits))).toBe(expected);
  });

  it('is pure: the same state and intent give the same verdict', () => {
    const state = guardState({ actionBucket: fullBucket(limits, NOW) });
    expect(evaluateGuards(state, small, limits)).toEqual(evaluateGuards(state, small, limits));
    expect(state.actionBucket.milliTokens).toBe(2000);
  });
});

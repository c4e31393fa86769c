import { describe, expect, it } from 'vitest';
import { decimalToWei } from '../../../src/core/decimal.js';
import {
  ARMED_KILL_SWITCH,
  checkKillSwitch,
  resetKillSwitch,
  tripKillSwitch,
  watchLoss,
} from '../../../src/engine/guards/killSwitch.js';
import {
  adjustIsolatedMargin,
  cancel,
  cancelAll,
  closePosition,
  placeLimit,
  placeMarket,
  setLeverage,
  setMarginMode,
} from '../../../src/engine/intents/intentBuilders.js';
import type { Intent } from '../../../src/engine/intents/intents.js';
import { base, guardState, limits, NOW, outcome } from './guardFixture.js';

const tripped = tripKillSwitch(ARMED_KILL_SWITCH, 'manual', NOW).state;
/** A PnL as the kill switch reads it, from USDC decimals. */
const pnl = (realised: string, unrealised: string) => ({
  realisedWei: decimalToWei(realised, 'realised'),
  unrealisedWei: decimalToWei(unrealised, 'unrealised'),
});

describe('kill switch', () => {
  it.each<[Intent, string]>([
    [placeLimit({ ...base, side: 'buy', size: '1', price: '1' }), 'kill_switch'],
    [placeMarket({ ...base, side: 'sell', size: '1', reduceOnly: true }), 'kill_switch'],
    [setLeverage({ ...base, leverage: 2 }), 'kill_switch'],
    [setMarginMode({ ...base, marginMode: 'isolated' }), 'kill_switch'],
    [adjustIsolatedMargin({ ...base, amount: '5' }), 'kill_switch'],
    [cancel({ ...base, target: { intentId: 'i-0' } }), 'allow'],
    [cancelAll(base), 'allow'],
    [closePosition(base), 'allow'],
  ])('when tripped, %o -> %s', (intent, expected) => {
    expect(outcome(checkKillSwitch(guardState({ killSwitch: tripped }), intent))).toBe(expected);
    expect(outcome(checkKillSwitch(guardState(), intent))).toBe('allow');
  });

  it('reports the trip once, so the wiring cancels everything once', () => {
    const first = tripKillSwitch(ARMED_KILL_SWITCH, 'manual', NOW);
    expect(first).toEqual({ state: { tripped: true, reason: 'manual', trippedAtMs: NOW }, justTripped: true });
    expect(tripKillSwitch(first.state, 'again', NOW + 1)).toEqual({ state: first.state, justTripped: false });
    expect(resetKillSwitch()).toEqual({ tripped: false });
  });

  it.each([
    ['-20', '-29.99', false],
    ['-20', '-30', true],
    ['10', '-60.5', true],
    ['0', '0', false],
    ['-50.000001', '0', true],
  ])('realized %s + unrealized %s trips at a loss of 50: %s', (realized, unrealized, trips) => {
    const transition = watchLoss(ARMED_KILL_SWITCH, pnl(realized, unrealized), limits, NOW);
    expect(transition.justTripped).toBe(trips);
    expect(transition.state.tripped).toBe(trips);
    if (trips) expect(transition.state.reason).toMatch(/loss limit/);
  });

  it('says the PnL and the limit it reached, as decimals', () => {
    expect(watchLoss(ARMED_KILL_SWITCH, pnl('-50.000001', '0.25'), limits, NOW).state.reason).toBeUndefined();
    expect(watchLoss(ARMED_KILL_SWITCH, pnl('-50.25', '0.2'), limits, NOW).state.reason).toBe(
      'loss limit reached: PnL -50.05 <= -50',
    );
  });

  it('judges a limit finer than a wei exactly', () => {
    const fine = { ...limits, killSwitchMaxLoss: '0.0000000000000000005' };
    expect(watchLoss(ARMED_KILL_SWITCH, pnl('0', '0'), fine, NOW).justTripped).toBe(false);
    expect(watchLoss(ARMED_KILL_SWITCH, pnl('-0.000000000000000001', '0'), fine, NOW).state.reason).toBe(
      'loss limit reached: PnL -0.000000000000000001 <= -0.0000000000000000005',
    );
  });

  it('stays tripped after the loss recovers, until reset', () => {
    const down = watchLoss(ARMED_KILL_SWITCH, pnl('-60', '0'), limits, NOW).state;
    const recovered = watchLoss(down, pnl('10', '0'), limits, NOW + 1000);
    expect(recovered).toEqual({ state: down, justTripped: false });
  });
});

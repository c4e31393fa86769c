import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ENGINE_CONFIG,
  withEngineDefaults,
  type EngineConfigInput,
} from '../../../src/engine/config/engineConfig.js';

describe('engine config', () => {
  it('fills every section from the defaults and keeps what was given', () => {
    const config = withEngineDefaults({ guards: { maxOrderNotional: '250' }, nonces: { slot: 1, slots: 3 } });
    expect(config.guards.maxOrderNotional).toBe('250');
    expect(config.guards.maxOpenOrders).toBe(DEFAULT_ENGINE_CONFIG.guards.maxOpenOrders);
    expect(config.nonces).toEqual({ slot: 1, slots: 3 });
    expect(config.retry).toEqual(DEFAULT_ENGINE_CONFIG.retry);
    expect(withEngineDefaults()).toEqual(DEFAULT_ENGINE_CONFIG);
  });

  it('defaults match the venue facts that are not ours to choose', () => {
    expect(DEFAULT_ENGINE_CONFIG.guards.leverageUpdateIntervalMs).toBe(1000);
    expect(Object.isFrozen(DEFAULT_ENGINE_CONFIG.guards)).toBe(true);
  });

  it.each<[string, EngineConfigInput, RegExp]>([
    ['a slot outside the slots', { nonces: { slot: 2, slots: 2 } }, /nonces\.slot: invalid value 2/],
    ['zero slots', { nonces: { slots: 0 } }, /nonces\.slots/],
    ['more slots than bits', { nonces: { slots: 209 } }, /nonces\.slots/],
    ['a default slippage above its own limit', { preTrade: { defaultMaxSlippageBps: 600 } }, /defaultMaxSlippageBps/],
    [
      'a slippage limit of 100%',
      { preTrade: { maxSlippageBpsLimit: 10_000, defaultMaxSlippageBps: 50 } },
      /maxSlippageBpsLimit/,
    ],
    ['a negative notional limit', { guards: { maxOrderNotional: '-5' } }, /guards\.maxOrderNotional/],
    ['a zero loss limit', { guards: { killSwitchMaxLoss: '0' } }, /killSwitchMaxLoss/],
    ['a float-looking notional', { guards: { maxPositionNotional: '1e6' } }, /maxPositionNotional/],
    [
      'a bad per-market limit',
      { guards: { maxPositionNotionalByMarket: { '1': 'lots' } } },
      /maxPositionNotionalByMarket\.1/,
    ],
    ['a fractional rate', { guards: { actionsPerSecond: 2.5 } }, /actionsPerSecond/],
    ['a negative delay', { retry: { resendDelayMs: -1 } }, /resendDelayMs/],
  ])('refuses %s, naming the path', (_name, input, message) => {
    expect(() => withEngineDefaults(input)).toThrow(message);
  });
});

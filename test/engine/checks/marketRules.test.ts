import { describe, expect, it } from 'vitest';
import { marketRules } from '../../../src/engine/checks/marketRules.js';
import type { MarketView } from '../../../src/engine/checks/marketView.js';
import { ThrownRefusal } from '../../../src/engine/intents/refusal.js';

function market(config: Partial<MarketView['config']> = {}): MarketView {
  return {
    market_id: '1',
    mark_price: '100',
    config: { step_size: '0.001', step_price: '0.5', min_order_size: '0.002', ...config },
  };
}

function refusal(run: () => unknown): { rule: string; value: unknown } | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof ThrownRefusal) return { rule: error.refusal.rule, value: error.refusal.value };
    throw error;
  }
  return undefined;
}

describe('marketRules', () => {
  it('parses the step, tick and minimum size exactly, keeping their texts', () => {
    expect(marketRules(market())).toEqual({
      step: { units: 1n, scale: 3 },
      stepText: '0.001',
      tick: { units: 5n, scale: 1 },
      tickText: '0.5',
      minSize: { units: 2n, scale: 3 },
      minSizeText: '0.002',
      maxLeverage: 255,
      maxLeverageText: undefined,
    });
  });

  it('answers a second read of the same record from its cache, also once the mark moved', () => {
    const m = market();
    expect(marketRules(m)).toBe(marketRules(m));
    // The engine copies the record with a new mark and the same config object.
    expect(marketRules({ ...m, mark_price: '101' })).toBe(marketRules(m));
  });

  it('parses a record again when its values were changed in place', () => {
    const config: MarketView['config'] = { step_size: '0.001', step_price: '0.5', min_order_size: '0.002' };
    const m: MarketView = { market_id: '1', mark_price: '100', config };
    expect(marketRules(m).step).toEqual({ units: 1n, scale: 3 });
    (config as { step_size: string }).step_size = '0.01';
    expect(marketRules(m).step).toEqual({ units: 1n, scale: 2 });
    (config as { max_leverage?: string }).max_leverage = '20';
    expect(marketRules(m).maxLeverage).toBe(20);
    (config as { step_size: string }).step_size = '0';
    expect(refusal(() => marketRules(m))).toEqual({ rule: 'market_config', value: '0' });
  });

  it.each([
    ['a zero step size', { step_size: '0' }, '0'],
    ['a negative tick', { step_price: '-0.5' }, '-0.5'],
    ['a malformed tick', { step_price: '1e-3' }, '1e-3'],
    ['a negative minimum size', { min_order_size: '-0.001' }, '-0.001'],
    ['a malformed minimum size', { min_order_size: '' }, ''],
    ['the step before the tick when both are bad', { step_size: 'x', step_price: '0' }, 'x'],
  ])('refuses %s as market_config, naming the value', (_name, config, value) => {
    expect(refusal(() => marketRules(market(config)))).toEqual({ rule: 'market_config', value });
  });

  it('accepts a zero minimum size', () => {
    expect(marketRules(market({ min_order_size: '0' })).minSize).toEqual({ units: 0n, scale: 0 });
  });

  it.each([
    ['50', 50],
    ['12.9', 12],
    ['0.5', 0],
    ['255', 255],
    ['1000', 255],
  ])('caps leverage at max_leverage %s rounded down, within uint8: %i', (maxLeverage, cap) => {
    expect(marketRules(market({ max_leverage: maxLeverage })).maxLeverage).toBe(cap);
  });

  it('marks a malformed max_leverage without refusing the market (only leverage changes depend on it)', () => {
    expect(marketRules(market({ max_leverage: '-5' })).maxLeverage).toBe('malformed');
    expect(marketRules(market({ max_leverage: 'lots' })).maxLeverage).toBe('malformed');
  });
});

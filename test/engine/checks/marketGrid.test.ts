import { describe, expect, it } from 'vitest';
import { marketGrid } from '../../../src/engine/checks/marketGrid.js';
import type { MarketView } from '../../../src/engine/checks/marketView.js';
import { Refusal } from '../../../src/engine/intents/refusal.js';

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
    if (error instanceof Refusal) return { rule: error.rejection.rule, value: error.rejection.value };
    throw error;
  }
  return undefined;
}

describe('marketGrid', () => {
  it('parses the step, tick and minimum size exactly', () => {
    expect(marketGrid(market())).toEqual({
      step: { units: 1n, scale: 3 },
      tick: { units: 5n, scale: 1 },
      minSize: { units: 2n, scale: 3 },
    });
  });

  it('answers a second read of the same record from its cache', () => {
    const m = market();
    expect(marketGrid(m)).toBe(marketGrid(m));
  });

  it('parses a record again when its values were changed in place', () => {
    const config = { step_size: '0.001', step_price: '0.5', min_order_size: '0.002' };
    const m: MarketView = { market_id: '1', mark_price: '100', config };
    expect(marketGrid(m).step).toEqual({ units: 1n, scale: 3 });
    config.step_size = '0.01';
    expect(marketGrid(m).step).toEqual({ units: 1n, scale: 2 });
    config.step_size = '0';
    expect(refusal(() => marketGrid(m))).toEqual({ rule: 'market_config', value: '0' });
  });

  it.each([
    ['a zero step size', { step_size: '0' }, '0'],
    ['a negative tick', { step_price: '-0.5' }, '-0.5'],
    ['a malformed tick', { step_price: '1e-3' }, '1e-3'],
    ['a negative minimum size', { min_order_size: '-0.001' }, '-0.001'],
    ['a malformed minimum size', { min_order_size: '' }, ''],
    ['the step before the tick when both are bad', { step_size: 'x', step_price: '0' }, 'x'],
  ])('refuses %s as market_config, naming the value', (_name, config, value) => {
    expect(refusal(() => marketGrid(market(config)))).toEqual({ rule: 'market_config', value });
  });

  it('accepts a zero minimum size', () => {
    expect(marketGrid(market({ min_order_size: '0' })).minSize).toEqual({ units: 0n, scale: 0 });
  });
});

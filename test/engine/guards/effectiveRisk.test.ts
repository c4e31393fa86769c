import { describe, expect, it } from 'vitest';
import { effectiveRisk, type RiskLimits } from '../../../src/engine/guards/riskLimits.js';

const global: RiskLimits = {
  max_order_notional: '1000',
  max_position_per_market: '1',
  max_open_orders: 10,
  max_actions_per_second: 5,
  kill_switch: { max_loss: '100' },
};

describe('effectiveRisk', () => {
  it('uses the global limits when the strategy has no budget', () => {
    expect(effectiveRisk(global, {})).toEqual(global);
  });

  it('overrides field by field and keeps the rest global', () => {
    expect(effectiveRisk(global, { risk: { max_open_orders: 2, kill_switch: { max_loss: '10' } } })).toEqual({
      ...global,
      max_open_orders: 2,
      kill_switch: { max_loss: '10' },
    });
  });
});

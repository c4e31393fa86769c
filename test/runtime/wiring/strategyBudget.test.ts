import { describe, expect, it } from 'vitest';
import { budgetRejection } from '../../../src/runtime/wiring/strategyBudget.js';
import { cancelAll, placeLimit, placeMarket } from '../../../src/engine/intentBuilders.js';

const budget = {
  max_order_notional: '100',
  max_position_per_market: '1000',
  max_open_orders: 2,
  max_actions_per_second: 5,
  kill_switch: { max_loss: '50' },
};
const limit = (size: string, price: string) => placeLimit({ intentId: 'i', strategy: 's', marketId: 1, side: 'buy', size, price });

describe('per-strategy budget', () => {
  it.each([
    ['within budget', limit('0.001', '65000'), 0, undefined, undefined],
    ['notional above the strategy budget', limit('0.002', '65000'), 0, undefined, 'max_order_notional'],
    ['exactly at the notional budget', limit('0.001', '100000'), 0, undefined, undefined],
    ['open orders at the budget', limit('0.001', '65000'), 2, undefined, 'max_open_orders'],
    ['market order valued at the mark', placeMarket({ intentId: 'm', strategy: 's', marketId: 1, side: 'sell', size: '0.01' }), 0, '65000', 'max_order_notional'],
    ['market order without a mark passes to the engine guards', placeMarket({ intentId: 'm', strategy: 's', marketId: 1, side: 'sell', size: '0.01' }), 0, undefined, undefined],
    ['cancels are never limited', cancelAll({ intentId: 'c', strategy: 's', marketId: 1 }), 99, '65000', undefined],
  ] as const)('%s', (_label, intent, open, mark, rule) => {
    expect(budgetRejection(intent, budget, open, mark)?.rule).toBe(rule);
  });

  it('names the strategy, the value and the budget', () => {
    const refused = budgetRejection(limit('0.002', '65000'), budget, 0, undefined);
    expect(refused).toMatchObject({ rule: 'max_order_notional', value: '130' });
    expect(refused?.reason).toBe("order notional 130 is above strategy s's budget of 100 USDC");
  });
});

import type { MarketView } from '../../../../src/engine/checks/marketView.js';

/** The BTC market the pre-trade checks are tested on: a 0.1 tick, 0.00001 step, 0.00015 minimum. */
export const btcMarketView: MarketView = {
  market_id: '1',
  mark_price: '65000.5',
  active: true,
  post_only: false,
  reduce_only: false,
  config: { step_size: '0.00001', step_price: '0.1', min_order_size: '0.00015', max_leverage: '50', unlocked: true },
};

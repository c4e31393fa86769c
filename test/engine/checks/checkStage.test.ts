import { describe, expect, it } from 'vitest';
import { checkStage, type CheckStageDeps } from '../../../src/engine/checks/checkStage.js';
import { DEFAULT_ENGINE_CONFIG } from '../../../src/engine/config/engineConfig.js';
import { cancel, placeLimit } from '../../../src/engine/intents/intentBuilders.js';
import { OrderTracker } from '../../../src/engine/tracking/orderTracker.js';
import { btcMarketView } from './support/btcMarketView.js';

const btc = btcMarketView;
const ORDER_ID = '0x00000000000000f2aa';

function deps(lookups: string[], found?: bigint): CheckStageDeps {
  return {
    tracker: new OrderTracker(),
    config: DEFAULT_ENGINE_CONFIG,
    market: (id) => (id === 1 ? btc : undefined),
    lookupRestingId: async (_marketId, orderId) => {
      lookups.push(orderId);
      return found;
    },
  };
}

describe('checkStage', () => {
  it('a placement passes at once as its wire action, in steps and ticks', () => {
    const checked = checkStage(
      placeLimit({ intentId: 'p-1', strategy: 's', marketId: 1, side: 'buy', size: '0.002', price: '66000.1' }),
      deps([]),
    );
    expect(checked).not.toBeInstanceOf(Promise);
    expect(checked).toMatchObject({
      action: {
        action: 'placeOrder',
        size: '0.002',
        price: '66000.1',
        order: { size_steps: 200, price_ticks: 660_001 },
      },
    });
  });

  it('refuses what breaks a rule, at once, naming it', () => {
    const checked = checkStage(
      placeLimit({ intentId: 'p-1', strategy: 's', marketId: 9, side: 'buy', size: '0.002', price: '66000' }),
      deps([]),
    );
    expect(checked).toMatchObject({ rule: 'market_id', value: '9' });
  });

  it("resolves a cancel's target from the venue when the model does not know it", async () => {
    const lookups: string[] = [];
    const checked = await checkStage(
      cancel({ intentId: 'c-1', strategy: 's', marketId: 1, target: { orderId: ORDER_ID } }),
      deps(lookups, 121n),
    );
    expect(lookups).toEqual([ORDER_ID]);
    expect(checked).toMatchObject({ action: { action: 'cancelOrder', order_id: ORDER_ID, resting_order_id: 121n } });
  });

  it('refuses a cancel whose target is not open on the venue', async () => {
    const checked = await checkStage(
      cancel({ intentId: 'c-1', strategy: 's', marketId: 1, target: { orderId: ORDER_ID } }),
      deps([], undefined),
    );
    expect(checked).toMatchObject({ rule: 'cancel_target', value: ORDER_ID });
  });
});

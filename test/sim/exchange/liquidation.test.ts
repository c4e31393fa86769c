import { describe, expect, it } from 'vitest';
import type { Address } from '../../../src/core/address.js';
import { maintenanceMarginWei } from '../../../src/sim/exchange/liquidation.js';
import { compileMarket, DEFAULT_MARKETS, type MarketDefinition } from '../../../src/sim/exchange/markets.js';
import { BOB, T0, limit, market, ofType, quietExchange } from './exchangeFixture.js';

const DAVE = '0x4444444444444444444444444444444444444444' as Address;
const WEI = 10n ** 18n;

/** DAVE: 100 USDC, long 0.015 BTC from 65,000 at 10x; BOB bids 0.02 BTC at 58,000. Oracle still. */
function longDave(liquidation: boolean) {
  const ex = quietExchange({ liquidation, oracleVolatilityPpm: 0 });
  ex.deposit(DAVE, '100');
  ex.placeOrder(BOB, limit(1, 650_000, 1500), T0);
  ex.placeOrder(DAVE, market(0, 650_000, 1500), T0);
  ex.placeOrder(BOB, limit(0, 580_000, 2000), T0);
  return ex;
}

describe('maintenance margin', () => {
  it.each([
    { market: 0, steps: 1500n, mark: 60_000n, expected: 9n * WEI },
    { market: 0, steps: -1500n, mark: 58_500n, expected: (8775n * WEI) / 1000n },
    { market: 1, steps: 100n, mark: 3_200n, expected: (64n * WEI) / 100n },
    { market: 0, steps: 0n, mark: 60_000n, expected: 0n },
  ])('market index $market, $steps steps at $mark', ({ market: index, steps, mark, expected }) => {
    const spec = compileMarket(DEFAULT_MARKETS[index] as MarketDefinition);
    expect(maintenanceMarginWei(spec, steps, mark * WEI)).toBe(expected);
  });
});

describe('liquidation (opt-in)', () => {
  it('leaves a pool above maintenance margin alone', () => {
    const ex = longDave(true);
    ex.setMark(1, '60000'); // equity 24.5125 ≥ maintenance 9
    ex.advanceBlock(1, T0 + 1000);
    expect(ex.position(DAVE, 1).size_steps).toBe('1500');
  });

  it('closes a cross position below maintenance margin into the book, cancelling its orders first', () => {
    const ex = longDave(true);
    const takeProfit = ex.placeOrder(DAVE, limit(1, 700_000, 1500, { reduce_only: true }), T0).order;
    ex.setMark(1, '58500'); // equity 2.0125 < maintenance 8.775
    const events = ex.advanceBlock(1, T0 + 1000).events;
    expect(ex.position(DAVE, 1).size_steps).toBe('0');
    expect(ex.order(takeProfit.order_id)?.status).toBe('ORDER_STATUS_CANCELLED');
    const fill = ofType(events, 'fill').find((e) => e.account === DAVE)?.fill;
    expect(fill).toMatchObject({
      side: 1,
      price: '58000',
      size: '0.015',
      liquidity_indicator: 'TAKER',
      realized_pnl: '-105',
      fee: '0.435',
    });
    const order = ofType(events, 'order').find((e) => e.account === DAVE && e.order.order_id === fill?.order_id)?.order;
    expect(order).toMatchObject({ reduce_only: true, order_type: 0, time_in_force: 3, status: 'ORDER_STATUS_FILLED' });
    // 100 − 0.4875 − 105 − 0.435: the loss went past the collateral.
    expect(ex.balance(DAVE).balance).toBe('-5.9225');
    expect(ex.position(BOB, 1).size_steps).toBe('0');
  });

  it('is off by default', () => {
    const ex = longDave(false);
    ex.setMark(1, '58500');
    ex.advanceBlock(1, T0 + 1000);
    expect(ex.position(DAVE, 1).size_steps).toBe('1500');
  });

  it('liquidates an isolated position against its own balance only', () => {
    const ex = quietExchange({ liquidation: true, oracleVolatilityPpm: 0 });
    ex.deposit(DAVE, '100');
    ex.setMarginMode(DAVE, 1, 1);
    ex.adjustIsolatedMargin(DAVE, 1, 40n * WEI);
    ex.placeOrder(BOB, limit(1, 650_000, 500), T0);
    ex.placeOrder(DAVE, market(0, 650_000, 500), T0);
    ex.placeOrder(BOB, limit(0, 570_000, 500), T0);
    ex.setMark(1, '58000'); // isolated equity 4.8375 ≥ maintenance 2.9
    ex.advanceBlock(1, T0 + 1000);
    expect(ex.position(DAVE, 1).size_steps).toBe('500');
    ex.setMark(1, '57500'); // 2.3375 < 2.875
    ex.advanceBlock(2, T0 + 2000);
    expect(ex.position(DAVE, 1)).toMatchObject({ size_steps: '0', isolated_usdc_balance: '-0.305' });
    // 39.8375 − 40 (loss selling at 57,000) − 0.1425 fee (5 bps of 285); the cross balance never moved.
    expect(ex.balance(DAVE).balance).toBe('60');
  });

  it('what the book cannot absorb stays open for the next block', () => {
    const ex = quietExchange({ liquidation: true, oracleVolatilityPpm: 0 });
    ex.deposit(DAVE, '100');
    ex.placeOrder(BOB, limit(1, 650_000, 1500), T0);
    ex.placeOrder(DAVE, market(0, 650_000, 1500), T0);
    ex.placeOrder(BOB, limit(0, 580_000, 1000), T0);
    ex.setMark(1, '58500');
    ex.advanceBlock(1, T0 + 1000);
    expect(ex.position(DAVE, 1).size_steps).toBe('500');
    ex.placeOrder(BOB, limit(0, 579_000, 1000), T0 + 1500);
    ex.advanceBlock(2, T0 + 2000);
    expect(ex.position(DAVE, 1).size_steps).toBe('0');
  });

  it('reports the liquidation price, and liquidates exactly when the mark crosses it', () => {
    const ex = longDave(true);
    // Solves 99.5125 + 0.015 (p − 65000) = 0.015 · p · 0.01, rounded to the nearest wei.
    expect(ex.position(DAVE, 1).liquidation_price).toBe('58955.387205387205387205');
    ex.setMark(1, '58955.4');
    ex.advanceBlock(1, T0 + 1000);
    expect(ex.position(DAVE, 1).size_steps).toBe('1500');
    ex.setMark(1, '58955.3');
    ex.advanceBlock(2, T0 + 2000);
    expect(ex.position(DAVE, 1)).toMatchObject({ size_steps: '0', liquidation_price: '' });
  });

  it('reports liquidation prices of shorts and isolated positions; "" when liquidation is off', () => {
    const short = quietExchange({ liquidation: true, oracleVolatilityPpm: 0 });
    short.deposit(DAVE, '100');
    short.placeOrder(BOB, limit(0, 650_000, 1500), T0);
    short.placeOrder(DAVE, market(1, 650_000, 1500), T0);
    expect(short.position(DAVE, 1).liquidation_price).toBe('70924.917491749174917492');

    const isolated = quietExchange({ liquidation: true, oracleVolatilityPpm: 0 });
    isolated.deposit(DAVE, '100');
    isolated.setMarginMode(DAVE, 1, 1);
    isolated.adjustIsolatedMargin(DAVE, 1, 40n * WEI);
    isolated.placeOrder(BOB, limit(1, 650_000, 500), T0);
    isolated.placeOrder(DAVE, market(0, 650_000, 500), T0);
    expect(isolated.position(DAVE, 1).liquidation_price).toBe('57608.585858585858585859');

    expect(longDave(false).position(DAVE, 1).liquidation_price).toBe('');
  });
});

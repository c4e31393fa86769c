import { describe, expect, it } from 'vitest';
import { decimalToWei, weiToDecimal } from '../../../src/core/decimal.js';
import { ALICE, BOB, T0, limit, ofType, quietExchange } from './exchangeFixture.js';

/** Market 1: tick 0.1 USDC, step 0.00001 BTC. 100 steps = 0.001 BTC. Fees: maker 2 bps, taker 5 bps. */
const ticks = (price: number) => price * 10;

describe('positions, average entry and PnL', () => {
  it('follows a long through adds, a partial close and a flip, exactly', () => {
    const ex = quietExchange();
    const trade = (side: 0 | 1, price: number, steps: number) => {
      ex.placeOrder(BOB, limit(side === 0 ? 1 : 0, ticks(price), steps), T0);
      return ex.placeOrder(ALICE, limit(side, ticks(price), steps), T0);
    };
    const steps = [
      {
        side: 0 as const,
        price: 65_000,
        steps: 100,
        size: '0.001',
        side_: 'BUY',
        avg: '65000',
        realized: '0',
        fee: '0.0325',
      },
      {
        side: 0 as const,
        price: 66_000,
        steps: 100,
        size: '0.002',
        side_: 'BUY',
        avg: '65500',
        realized: '0',
        fee: '0.033',
      },
      {
        side: 1 as const,
        price: 68_000,
        steps: 50,
        size: '0.0015',
        side_: 'BUY',
        avg: '65500',
        realized: '1.25',
        fee: '0.017',
      },
      {
        side: 1 as const,
        price: 64_000,
        steps: 250,
        size: '0.001',
        side_: 'SELL',
        avg: '64000',
        realized: '-2.25',
        fee: '0.08',
      },
    ];
    for (const step of steps) {
      const placed = trade(step.side, step.price, step.steps);
      const fill = ofType(placed.events, 'fill').find((e) => e.account === ALICE)?.fill;
      expect(fill).toMatchObject({ liquidity_indicator: 'TAKER', fee: step.fee, realized_pnl: step.realized });
      const position = ex.position(ALICE, 1);
      expect(position).toMatchObject({ size: step.size, side: step.side_, avg_entry_price: step.avg });
    }
    expect(ex.position(ALICE, 1)).toMatchObject({ size_steps: '-100', realized_pnl: '-1' });
    // 1,000,000 + 1.25 − 2.25 − (0.0325 + 0.033 + 0.017 + 0.08)
    expect(ex.balance(ALICE).balance).toBe('999998.8375');
  });

  it('values the position at the mark: unrealized PnL of long and short', () => {
    const ex = quietExchange();
    ex.placeOrder(BOB, limit(1, ticks(65_000), 200), T0);
    ex.placeOrder(ALICE, limit(0, ticks(65_000), 200), T0);
    ex.setMark(1, '65500.5');
    expect(ex.position(ALICE, 1).unrealized_pnl).toBe('1.001');
    expect(ex.position(BOB, 1).unrealized_pnl).toBe('-1.001');
    expect(ex.position(ALICE, 1).mark_price).toBe('65500.5');
    // Equity includes unrealized PnL; the balance does not.
    expect(ex.balance(ALICE).balance).toBe('999999.935');
    expect(ex.balance(ALICE).equity).toBe('1000000.936');
  });

  it('rounds a repeating average half away from zero at 18 decimals and realizes against it', () => {
    const ex = quietExchange();
    ex.placeOrder(BOB, limit(1, 650_000, 15), T0);
    ex.placeOrder(ALICE, limit(0, 650_000, 15), T0);
    ex.placeOrder(BOB, limit(1, 650_001, 30), T0);
    ex.placeOrder(ALICE, limit(0, 650_001, 30), T0);
    expect(ex.position(ALICE, 1).avg_entry_price).toBe('65000.066666666666666667');
    ex.placeOrder(BOB, limit(0, 650_001, 45), T0);
    const close = ex.placeOrder(ALICE, limit(1, 650_001, 45), T0);
    // (65000.1 − 65000.066666666666666667) × 0.00045 = 0.00001499999999999999985 → rounded down.
    expect(ofType(close.events, 'fill').find((e) => e.account === ALICE)?.fill.realized_pnl).toBe(
      '0.000014999999999999',
    );
    expect(ex.position(ALICE, 1)).toMatchObject({ size: '0', size_steps: '0', avg_entry_price: '0' });
    expect(ex.position(ALICE, 1).side).toBeUndefined();
    expect(ex.positions(ALICE)).toEqual([]);
  });
});

describe('fees', () => {
  it.each([
    { maker: 2n, taker: 5n, makerFee: '0.013', takerFee: '0.0325' },
    { maker: 0n, taker: 10n, makerFee: '0', takerFee: '0.065' },
    { maker: -1n, taker: 3n, makerFee: '-0.0065', takerFee: '0.0195' },
  ])('maker $maker bps, taker $taker bps on 65 USDC notional', ({ maker, taker, makerFee, takerFee }) => {
    const ex = quietExchange({ makerFeeBps: maker, takerFeeBps: taker });
    ex.placeOrder(BOB, limit(1, ticks(65_000), 100), T0);
    const placed = ex.placeOrder(ALICE, limit(0, ticks(65_000), 100), T0);
    const [trade] = ofType(placed.events, 'trade');
    expect(trade?.trade).toMatchObject({
      fee_maker: makerFee,
      fee_taker: takerFee,
      maker: BOB,
      taker: ALICE,
      maker_side: 1,
    });
    const fills = ofType(placed.events, 'fill').map((e) => [e.account, e.fill.liquidity_indicator, e.fill.fee]);
    expect(fills).toEqual([
      [BOB, 'MAKER', makerFee],
      [ALICE, 'TAKER', takerFee],
    ]);
    expect(ex.balance(BOB).balance).toBe(subtract('1000000', makerFee));
    expect(ex.balance(ALICE).balance).toBe(subtract('1000000', takerFee));
  });

  it('rounds a fee that is not a whole USD wei up', () => {
    // A custom market on an 18-decimal grid: 1 step at 1 tick is 1e-18 USDC of notional.
    const ex = quietExchange({
      takerFeeBps: 7n,
      makerFeeBps: 0n,
      markets: [
        {
          market_id: 9,
          display_name: 'FINE/USDC',
          active: true,
          post_only: false,
          reduce_only: false,
          initial_mark_price: '1',
          config: {
            name: 'FINE/USDC',
            step_size: '0.000000001',
            step_price: '0.000000001',
            min_order_size: '0.000000001',
            max_leverage: '10',
            maintenance_margin_factor: '0.1',
            unlocked: true,
          },
        },
      ],
    });
    ex.placeOrder(BOB, limit(1, 1, 1, { market_id: 9 }), T0);
    const placed = ex.placeOrder(ALICE, limit(0, 1, 1, { market_id: 9 }), T0);
    // notional 1e-18 USDC × 7 / 10^4 rounds up to 1 wei.
    expect(ofType(placed.events, 'fill').find((e) => e.account === ALICE)?.fill.fee).toBe('0.000000000000000001');
  });
});

describe('events of a trade', () => {
  it('reports orders, trade, fills, then one position and balance per account and one book change', () => {
    const ex = quietExchange();
    const maker = ex.placeOrder(BOB, limit(1, ticks(65_000), 100, { client_order_id: 77n }), T0).order;
    const placed = ex.placeOrder(ALICE, limit(0, ticks(65_000), 100, { client_order_id: 42n }), T0 + 1);
    expect(placed.events.map((e) => e.type)).toEqual([
      'trade',
      'fill',
      'fill',
      'order',
      'order',
      'position',
      'position',
      'balance',
      'balance',
      'book',
    ]);
    const [bobFill, aliceFill] = ofType(placed.events, 'fill').map((e) => e.fill);
    expect(bobFill).toMatchObject({
      order_id: maker.order_id,
      client_order_id: '77',
      side: 1,
      price: '65000',
      size: '0.001',
      market_id: 1,
    });
    expect(aliceFill).toMatchObject({
      order_id: placed.order.order_id,
      client_order_id: '42',
      side: 0,
      time: `${(T0 + 1) * 1_000_000}`,
    });
    const positions = ofType(placed.events, 'position').map((e) => [e.account, e.position.size, e.position.side]);
    expect(positions).toEqual([
      [BOB, '0.001', 'SELL'],
      [ALICE, '0.001', 'BUY'],
    ]);
    expect(ofType(placed.events, 'order').map((e) => [e.order.order_id, e.order.status])).toEqual([
      [maker.order_id, 'ORDER_STATUS_FILLED'],
      [placed.order.order_id, 'ORDER_STATUS_FILLED'],
    ]);
  });
});

function subtract(a: string, b: string): string {
  return weiToDecimal(decimalToWei(a, 'a') - decimalToWei(b, 'b'));
}

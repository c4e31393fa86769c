import { describe, expect, it } from 'vitest';
import { fillRecord, tradeRecord, type ExecutionPrint } from '../../../src/sim/exchange/executionRecords.js';
import type { SimOrder } from '../../../src/sim/exchange/simOrder.js';

const MAKER = '0x1111111111111111111111111111111111111111';
const TAKER = '0x2222222222222222222222222222222222222222';

function order(change: Partial<SimOrder>): SimOrder {
  return {
    sequence: 1n,
    wide: 1n,
    orderId: '0x01',
    account: MAKER,
    marketId: 7,
    side: 1,
    sizeSteps: 10,
    priceTicks: 100,
    orderType: 1,
    timeInForce: 0,
    postOnly: false,
    reduceOnly: false,
    stpMode: 0,
    filledSteps: 0,
    status: 'ORDER_STATUS_OPEN',
    ...change,
  };
}

const print: ExecutionPrint = { price: '64950.5', size: '0.001', time: '1700000000000000000' };

describe('execution records', () => {
  it('a trade names both orders and both sides, the maker side, and the fees as decimal USDC', () => {
    const maker = order({});
    const taker = order({ orderId: '0x02', account: TAKER, side: 0 });
    const record = tradeRecord('5', maker, taker, print, 12_500_000_000_000_000n, 10n ** 18n);
    expect(record).toEqual({
      id: '5',
      market_id: 7,
      maker_order_id: '0x01',
      taker_order_id: '0x02',
      maker: MAKER,
      taker: TAKER,
      maker_side: 1,
      price: '64950.5',
      size: '0.001',
      fee_maker: '0.0125',
      fee_taker: '1',
      time: '1700000000000000000',
    });
  });

  it("a fill carries the order's client id only when it has one, in the fills channel's key order", () => {
    const plain = fillRecord('9', order({}), 'MAKER', print, 0n, -(10n ** 17n));
    expect(plain).toEqual({
      id: '9',
      market_id: 7,
      account: MAKER,
      order_id: '0x01',
      side: 1,
      price: '64950.5',
      size: '0.001',
      fee: '0',
      time: '1700000000000000000',
      liquidity_indicator: 'MAKER',
      realized_pnl: '-0.1',
    });
    expect('client_order_id' in plain).toBe(false);
    const tagged = fillRecord('10', order({ clientOrderId: 42n }), 'TAKER', print, 1n, 0n);
    expect(Object.keys(tagged)).toEqual([
      'id',
      'market_id',
      'account',
      'order_id',
      'side',
      'price',
      'size',
      'fee',
      'time',
      'liquidity_indicator',
      'client_order_id',
      'realized_pnl',
    ]);
    expect(tagged).toMatchObject({ client_order_id: '42', liquidity_indicator: 'TAKER', fee: '0.000000000000000001' });
  });
});

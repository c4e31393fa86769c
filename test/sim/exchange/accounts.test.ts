import { describe, expect, it } from 'vitest';
import type { Address } from '../../../src/core/address.js';
import { Exchange } from '../../../src/sim/exchange/exchange.js';
import { ALICE, BOB, T0, limit, ofType, quietExchange, refusalText } from './exchangeFixture.js';

const ERIN = '0x6666666666666666666666666666666666666666' as Address;

describe('deposits and balances', () => {
  it.each([
    { amount: '0', text: 'InvalidArgument: amount must be positive, got 0' },
    { amount: '-5', text: 'InvalidArgument: amount must be positive, got -5' },
    {
      amount: '1e3',
      text: 'InvalidArgument: amount must be a decimal USDC string with at most 18 decimals, got "1e3"',
    },
    {
      amount: '0.0000000000000000001',
      text: 'InvalidArgument: amount must be a decimal USDC string with at most 18 decimals, got "0.0000000000000000001"',
    },
  ])('refuses deposit $amount', ({ amount, text }) => {
    const ex = quietExchange({}, []);
    expect(refusalText(() => ex.deposit(ERIN, amount))).toBe(text);
    expect(ex.isRegistered(ERIN)).toBe(false);
  });

  it('the first deposit registers; deposits add up and report a balance event', () => {
    const ex = quietExchange({}, []);
    const first = ex.deposit(ERIN, '1000');
    expect(ex.isRegistered(ERIN)).toBe(true);
    expect(ofType(first.events, 'balance').map((e) => e.balance)).toEqual([
      { account: ERIN, balance: '1000', equity: '1000', free_collateral: '1000' },
    ]);
    ex.deposit(ERIN, '0.5');
    expect(ex.balance(ERIN).balance).toBe('1000.5');
  });

  it('accepts addresses in any valid case and reports them checksummed', () => {
    const ex = quietExchange({}, []);
    const lower = '0xabcdefabcdefabcdefabcdefabcdefabcdefabcd' as Address;
    ex.deposit(lower, '10');
    const checksummed = ex.balance(lower.toUpperCase().replace('0X', '0x') as Address).account;
    expect(checksummed).toBe('0xABcdEFABcdEFabcdEfAbCdefabcdeFABcDEFabCD');
    expect(ex.balance(checksummed).balance).toBe('10');
    expect(refusalText(() => ex.deposit('0x1234', '1'))).toBe(
      'InvalidArgument: account must be a 0x-prefixed 20-byte address, got "0x1234"',
    );
  });

  it('free collateral is equity less the initial margin of positions and open orders', () => {
    const ex = quietExchange();
    ex.placeOrder(ALICE, limit(0, 650_000, 1000), T0); // 650 USDC at 10x → 65
    expect(ex.balance(ALICE)).toMatchObject({ balance: '1000000', free_collateral: '999935' });
  });
});

describe('account action events and refusals', () => {
  it('leverage and margin-mode changes report the position and the balance', () => {
    const ex = quietExchange();
    const events = ex.setLeverage(ALICE, 2, 25).events;
    expect(events.map((e) => e.type)).toEqual(['position', 'balance']);
    expect(ofType(events, 'position')[0]?.position).toMatchObject({
      market_id: 2,
      leverage: '25',
      margin_mode: 0,
      size: '0',
    });
    expect(ofType(ex.setMarginMode(ALICE, 2, 1).events, 'position')[0]?.position.margin_mode).toBe(1);
  });

  it.each([
    { name: 'leverage', act: (ex: Exchange) => ex.setLeverage(ERIN, 1, 5) },
    { name: 'margin mode', act: (ex: Exchange) => ex.setMarginMode(ERIN, 1, 1) },
    { name: 'isolated margin', act: (ex: Exchange) => ex.adjustIsolatedMargin(ERIN, 1, 1n) },
    { name: 'cancel', act: (ex: Exchange) => ex.cancelOrder(ERIN, 1, 1n) },
    { name: 'cancel-all', act: (ex: Exchange) => ex.cancelAll(ERIN, 1) },
  ])('$name needs a registered account', ({ act }) => {
    const ex = quietExchange();
    expect(refusalText(() => act(ex))).toBe(`FailedPrecondition: account ${ERIN} is not registered (userId 0)`);
  });

  it('refuses unknown markets in account actions and reads', () => {
    const ex = quietExchange();
    expect(refusalText(() => ex.setLeverage(ALICE, 77, 5))).toBe('NotFound: market 77 does not exist');
    expect(refusalText(() => ex.cancelAll(ALICE, 77))).toBe('NotFound: market 77 does not exist');
    expect(refusalText(() => ex.book(77))).toBe('NotFound: market 77 does not exist');
  });
});

describe('blocks and marks', () => {
  it('block numbers must increase', () => {
    const ex = quietExchange();
    ex.advanceBlock(5, T0);
    expect(() => ex.advanceBlock(5, T0 + 1)).toThrow(/blockNumber/);
    expect(ex.blockNumber).toBe(5);
  });

  it('setMark refuses non-positive or malformed prices and sets the market’s mark', () => {
    const ex = quietExchange();
    expect(refusalText(() => ex.setMark(1, '0'))).toBe('InvalidArgument: price must be positive, got 0');
    expect(refusalText(() => ex.setMark(1, 'abc'))).toBe(
      'InvalidArgument: price must be a decimal string with at most 18 decimals, got "abc"',
    );
    ex.setMark(2, '3333.33');
    expect(ex.markets()[1]).toMatchObject({
      market_id: '2',
      mark_price: '3333.33',
      index_price: '3333.33',
      last_price: '3333.33',
    });
    expect(ex.oraclePrices()['2']).toEqual({
      mark_price: '3333330000000000000000',
      index_price: '3333330000000000000000',
    });
  });

  it('last_price follows trades', () => {
    const ex = quietExchange();
    ex.placeOrder(ALICE, limit(1, 650_123, 20), T0);
    ex.placeOrder(BOB, limit(0, 650_200, 20), T0);
    expect(ex.markets()[0]?.last_price).toBe('65012.3');
  });

  it('a post-only order is not refused by an expired order at the top of the book', () => {
    const ex = quietExchange();
    ex.placeOrder(ALICE, limit(1, 650_000, 20, { time_in_force: 1, ttl_units: 1 }), T0);
    const placed = ex.placeOrder(BOB, limit(0, 650_000, 20, { post_only: true }), T0 + 1_000);
    expect(placed.order.status).toBe('ORDER_STATUS_OPEN');
    // The expired order left the book (and said so) before the new one rested: never a crossed book.
    expect(ofType(placed.events, 'order').map((e) => [e.account, e.order.status])).toEqual([
      [ALICE, 'ORDER_STATUS_CANCELLED'],
      [BOB, 'ORDER_STATUS_OPEN'],
    ]);
    expect(ex.book(1).asks).toEqual([]);
  });

  it('a refused placement changes nothing: an expired order is swept by the next block, with its event', () => {
    const ex = quietExchange();
    const gtt = ex.placeOrder(ALICE, limit(1, 650_000, 20, { time_in_force: 1, ttl_units: 1 }), T0).order;
    expect(() => ex.placeOrder(BOB, limit(0, 650_000, 14), T0 + 2_000)).toThrow();
    expect(ex.order(gtt.order_id)?.status).toBe('ORDER_STATUS_OPEN');
    const swept = ofType(ex.advanceBlock(1, T0 + 2_000).events, 'order');
    expect(swept.map((e) => [e.order.order_id, e.order.status])).toEqual([[gtt.order_id, 'ORDER_STATUS_CANCELLED']]);
  });
});

import { describe, expect, it } from 'vitest';
import {
  orderByIdPathSchema,
  orderHistoryQuerySchema,
  orderHistoryResponseSchema,
  tradeHistoryQuerySchema,
  tradeHistoryResponseSchema,
  type OrderHistoryRecordWire,
} from '../../../src/venue/schemas/restHistory.js';
import { issuePaths } from './restIssuePaths.js';

const ACCOUNT = '0x1111111111111111111111111111111111111111';
const ORDER_ID = `0x${'0'.repeat(14)}02${'ab'.repeat(16)}`;

const record: OrderHistoryRecordWire = {
  id: ORDER_ID,
  market_id: 1,
  sender: ACCOUNT,
  side: 'BUY',
  type: 'LIMIT',
  time_in_force: 'GTC',
  status: 'ORDER_STATUS_OPEN',
  price: '65000',
  size: '0.0004',
  filled_size: '0.00015',
  avg_price: '65000',
  post_only: false,
  reduce_only: false,
  resting_order_id: '1',
  wide_order_id: '2',
  client_order_id: '42',
  created_at: '1700000000001000000',
  block_number: 5,
  log_index: 0,
  tx_hash: `0x${'cd'.repeat(32)}`,
  fee_bps: 2,
  stop_price: '0',
  cancel_requested: false,
};

describe('order history query', () => {
  it('parses paging, sort, comma-separated statuses and order ids (lowercased, 0x added)', () => {
    const parsed = orderHistoryQuerySchema.parse({
      account: ACCOUNT.toUpperCase().replace('0X', '0x'),
      page: '2',
      limit: '1000',
      sorted_by: '-created_at',
      statuses: 'ORDER_STATUS_OPEN, ORDER_STATUS_FILLED',
      order_ids: `${ORDER_ID.slice(2).toUpperCase()},0xAB`,
    });
    expect(parsed).toMatchObject({
      page: 2,
      limit: 1000,
      sorted_by: '-created_at',
      statuses: ['ORDER_STATUS_OPEN', 'ORDER_STATUS_FILLED'],
    });
    expect(parsed.order_ids).toEqual([ORDER_ID, '0xab']);
  });

  it.each([
    [{ page: '0' }, 'page', /page number >= 1/],
    [{ page: '1.5' }, 'page', /page number >= 1/],
    [{ page: '-1' }, 'page', /page number >= 1/],
    [{ limit: '0' }, 'limit', /1 to 1000/],
    [{ limit: '1001' }, 'limit', /1 to 1000/],
    [{ limit: 'ten' }, 'limit', /1 to 1000/],
    [{ sorted_by: 'price' }, 'sorted_by', /created_at/],
    [{ statuses: 'OPEN' }, 'statuses', /unknown status "OPEN"/],
    [{ statuses: '' }, 'statuses', /unknown status ""/],
    [{ order_ids: 'xyz' }, 'order_ids', /not a hex order id: "xyz"/],
    [{ order_ids: Array.from({ length: 101 }, () => 'ab').join(',') }, 'order_ids', /at most 100 order ids, 101 sent/],
  ])('refuses %j with a message naming the value', (bad, path, message) => {
    const result = orderHistoryQuerySchema.safeParse({ account: ACCOUNT, ...bad });
    expect(issuePaths(result)).toEqual([path]);
    expect(result.error?.issues[0]?.message).toMatch(message);
  });

  it('requires a valid account on both history queries', () => {
    expect(issuePaths(orderHistoryQuerySchema.safeParse({}))).toEqual(['account']);
    expect(issuePaths(tradeHistoryQuerySchema.safeParse({ account: '0x12' }))).toEqual(['account']);
  });

  it('accepts exactly 100 order ids', () => {
    expect(
      orderHistoryQuerySchema.safeParse({
        account: ACCOUNT,
        order_ids: Array.from({ length: 100 }, () => 'ab').join(','),
      }).success,
    ).toBe(true);
  });
});

describe('order by id path (simulator)', () => {
  it('takes a 24-byte hex id (the venue length) with or without 0x and refuses anything else', () => {
    expect(orderByIdPathSchema.safeParse({ order_id: ORDER_ID }).success).toBe(true);
    expect(orderByIdPathSchema.safeParse({ order_id: ORDER_ID.slice(2) }).success).toBe(true);
    expect(issuePaths(orderByIdPathSchema.safeParse({ order_id: '0x1234' }))).toEqual(['order_id']);
    expect(issuePaths(orderByIdPathSchema.safeParse({ order_id: `0x${'zz'.repeat(24)}` }))).toEqual(['order_id']);
    expect(issuePaths(orderByIdPathSchema.safeParse({ order_id: `0x${'ab'.repeat(32)}` }))).toEqual(['order_id']);
  });
});

describe('order history response', () => {
  it('decodes the venue-facts record: nanosecond time and ids as bigint, decimals kept exact', () => {
    const parsed = orderHistoryResponseSchema.parse({ data: { orders: [record], page: 1, has_next_page: false } });
    expect(parsed.data.orders[0]).toMatchObject({
      id: ORDER_ID,
      market_id: '1',
      side: 'BUY',
      status: 'ORDER_STATUS_OPEN',
      filled_size: '0.00015',
      avg_price: '65000',
      created_at: 1_700_000_000_001_000_000n,
      resting_order_id: 1n,
      client_order_id: 42n,
      block_number: 5,
    });
  });

  it('reads "" as none for avg_price, stop_price and client_order_id, and tolerates a record without the optional fields', () => {
    const minimal = {
      id: ORDER_ID,
      market_id: '1',
      side: 'SELL',
      type: 'MARKET',
      status: 'ORDER_STATUS_CANCELLED',
      price: '1',
      size: '1',
      filled_size: '0',
      avg_price: '',
      stop_price: '',
      client_order_id: '',
      created_at: 5,
    };
    const parsed = orderHistoryResponseSchema.parse({ data: { orders: [minimal], page: '1', has_next_page: true } });
    expect(parsed.data.orders[0]).toMatchObject({
      avg_price: undefined,
      stop_price: undefined,
      client_order_id: undefined,
      created_at: 5n,
    });
    expect(parsed.data.page).toBe(1);
  });

  it('refuses a record with an unknown status or side', () => {
    const result = orderHistoryResponseSchema.safeParse({
      data: { orders: [{ ...record, status: 'DONE', side: 'buy' }], page: 1, has_next_page: false },
    });
    expect(issuePaths(result).sort()).toEqual(['data.orders.0.side', 'data.orders.0.status']);
  });
});

describe('trade history response', () => {
  it('reads each trade with the fills channel record schema', () => {
    const trade = {
      id: '7',
      market_id: 1,
      account: ACCOUNT,
      order_id: ORDER_ID,
      side: 0,
      price: '65000.10',
      size: '0.00015',
      fee: '0.0019500',
      time: '1700000000000000000',
      liquidity_indicator: 'MAKER',
      realized_pnl: '0',
    };
    const parsed = tradeHistoryResponseSchema.parse({
      data: { trades: [trade], page: 1, has_next_page: false, wallet_address: ACCOUNT },
    });
    expect(parsed.data.trades[0]).toMatchObject({
      id: '7',
      side: 'buy',
      price: '65000.1',
      fee: '0.00195',
      time: 1_700_000_000_000_000_000n,
    });
    expect(parsed.data.wallet_address).toBe(ACCOUNT);
  });
});

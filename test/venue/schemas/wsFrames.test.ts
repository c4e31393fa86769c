import { describe, expect, it } from 'vitest';
import {
  accountFrameSchema,
  authReplySchema,
  authV2FrameSchema,
  clientFrameSchema,
  controlFrameSchema,
  errorFrameChannel,
  errorFrameSchema,
  fillsFrameSchema,
  oracleFrameSchema,
  orderbookFrameSchema,
  ordersFrameSchema,
  positionsFrameSchema,
  subscribeFrameSchema,
  tradesFrameSchema,
} from '../../../src/venue/schemas/wsFrames.js';

const ACCOUNT = '0x1111111111111111111111111111111111111111';
const SIGNER = '0x2222222222222222222222222222222222222222';

const oracleWire = {
  channel: 'oracle',
  type: 'update',
  market_id: null,
  data: {
    prices: {
      '1': { index_price: '65000500000000000000000', mark_price: '65001000000000000000000' },
      '2': { mark_price: '3500000000000000001' },
    },
    timestamp: 1_700_000_000,
  },
  tx_hash: '0xabc',
  block_number: 123,
  log_index: 4,
  worker_timestamp: '1700000000123456789',
};

describe('oracle frames', () => {
  it('decode wei prices to exact decimals and keep absent prices absent', () => {
    const m = oracleFrameSchema.parse(oracleWire);
    expect(m.prices.get(1)).toEqual({ indexPrice: '65000.5', markPrice: '65001' });
    expect(m.prices.get(2)).toEqual({ markPrice: '3.500000000000000001' });
    expect('indexPrice' in (m.prices.get(2) ?? {})).toBe(false);
    expect(m.workerTimestamp).toBe(1_700_000_000_123_456_789n);
    expect(m).toMatchObject({ blockNumber: 123, logIndex: 4, txHash: '0xabc', timestamp: 1_700_000_000 });
  });

  it.each([
    ['a float price', { ...oracleWire, data: { ...oracleWire.data, prices: { '1': { mark_price: '1.5' } } } }],
    ['a numeric price', { ...oracleWire, data: { ...oracleWire.data, prices: { '1': { mark_price: 10 } } } }],
    ['a non-numeric market key', { ...oracleWire, data: { ...oracleWire.data, prices: { btc: {} } } }],
    ['a zero-padded market key', { ...oracleWire, data: { ...oracleWire.data, prices: { '01': {} } } }],
    ['a market id above 16 bits', { ...oracleWire, data: { ...oracleWire.data, prices: { '65536': {} } } }],
    ['a market_id that is not null', { ...oracleWire, market_id: 1 }],
    ['a numeric worker_timestamp', { ...oracleWire, worker_timestamp: 1 }],
    ['a missing block number', { ...oracleWire, block_number: undefined }],
    ['a snapshot type', { ...oracleWire, type: 'snapshot' }],
  ])('refuse %s', (_name, frame) => {
    expect(oracleFrameSchema.safeParse(frame).success).toBe(false);
  });
});

describe('orderbook frames', () => {
  // The venue's shape (venue-wire.md §3): decimal levels, string envelope id, checksum at the envelope.
  const wire = {
    method: 'update',
    channel: 'orderbook',
    type: 'update',
    market_id: '1',
    data: {
      market_id: 1,
      bids: [{ price: '65000.0', quantity: '1.5', order_count: 2 }],
      asks: [{ price: '65010', quantity: '0', order_count: 0 }],
    },
    level_count: 2,
    checksum: 12345,
    block_number: 3,
    log_index: 0,
    worker_timestamp: '1',
  };

  it('decode decimal levels to canonical decimals, wei and wei text, and read the envelope', () => {
    const m = orderbookFrameSchema.parse(wire);
    expect(m.marketId).toBe(1);
    const level = m.bids[0]!;
    expect({
      price: level.price,
      quantity: level.quantity,
      priceWei: level.priceWei,
      quantityWei: level.quantityWei,
      priceWeiText: level.priceWeiText,
      orderCount: level.orderCount,
    }).toEqual({
      price: '65000',
      quantity: '1.5',
      priceWei: 65_000n * 10n ** 18n,
      quantityWei: 15n * 10n ** 17n,
      priceWeiText: '65000000000000000000000',
      orderCount: 2,
    });
    expect(level.isDeletion).toBe(false);
    expect(m.asks[0]?.isDeletion).toBe(true);
    expect(m.asks[0]?.quantity).toBe('0');
    expect(m.checksum).toBe(12345);
    expect(m.levelCount).toBe(2);
    expect(m.blockNumber).toBe(3);
  });

  it('accept either JSON type for either market id, one of them absent, and refuse two that disagree', () => {
    const { market_id: _inner, ...dataWithoutId } = wire.data;
    expect(orderbookFrameSchema.parse({ ...wire, market_id: 7, data: { ...wire.data, market_id: '7' } }).marketId).toBe(
      7,
    );
    expect(orderbookFrameSchema.parse({ ...wire, market_id: undefined }).marketId).toBe(1);
    expect(orderbookFrameSchema.parse({ ...wire, data: dataWithoutId }).marketId).toBe(1);
    expect(orderbookFrameSchema.safeParse({ ...wire, market_id: undefined, data: dataWithoutId }).success).toBe(false);
    expect(orderbookFrameSchema.safeParse({ ...wire, market_id: '2' }).success).toBe(false);
  });

  it('read the older checksum in data, the envelope one winning, and none on a snapshot', () => {
    const older = { ...wire, checksum: undefined, data: { ...wire.data, checksum: 99 } };
    expect(orderbookFrameSchema.parse(older).checksum).toBe(99);
    expect(orderbookFrameSchema.parse({ ...older, checksum: 5 }).checksum).toBe(5);
    const snapshot = orderbookFrameSchema.parse({ ...wire, type: 'snapshot', method: 'snapshot', checksum: undefined });
    expect('checksum' in snapshot).toBe(false);
  });

  it('refuse wei-shaped levels (the old reading) naming the field, and out-of-range checksums', () => {
    const weiPrice = {
      ...wire,
      data: { ...wire.data, bids: [{ price: '65000000000000000000000', quantity: '1', order_count: 1 }] },
    };
    const refused = orderbookFrameSchema.safeParse(weiPrice);
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.path).toEqual(['data', 'bids', 0, 'price']);
    expect(refused.error?.issues[0]?.message).toMatch(/decimal string below 1e18/);
    for (const price of ['-1', '1e3', '1.', '1.0000000000000000001'])
      expect(
        orderbookFrameSchema.safeParse({
          ...wire,
          data: { ...wire.data, bids: [{ price, quantity: '1', order_count: 1 }] },
        }).success,
        price,
      ).toBe(false);
    expect(orderbookFrameSchema.safeParse({ ...wire, checksum: 2 ** 32 }).success).toBe(false);
  });
});

describe('trades and private channel frames', () => {
  it('decode a trade with decimal prices and a string side', () => {
    const m = tradesFrameSchema.parse({
      channel: 'trades',
      type: 'update',
      market_id: 1,
      data: {
        id: 9,
        maker_order_id: '0x1',
        taker_order_id: '0x2',
        maker: ACCOUNT,
        taker: SIGNER,
        maker_side: 'SELL',
        price: '65000.50',
        size: '0.001',
        fee_maker: '0.01',
        fee_taker: '0.02',
      },
      worker_timestamp: '5',
    });
    expect(m.trades).toEqual([
      expect.objectContaining({ id: '9', marketId: 1, makerSide: 'sell', price: '65000.5', size: '0.001' }),
    ]);
  });

  it('decode orders, positions, fills and account payloads', () => {
    const orders = ordersFrameSchema.parse({
      channel: 'orders',
      type: 'snapshot',
      data: [{ order_id: '0xab', market_id: '1', status: 'ORDER_STATUS_OPEN', side: 0, size_steps: 3, extra: true }],
      worker_timestamp: '1',
    });
    expect(orders.orders[0]).toMatchObject({
      order_id: '0xab',
      market_id: 1,
      side: 'buy',
      size_steps: '3',
      extra: true,
    });

    const positions = positionsFrameSchema.parse({
      channel: 'positions',
      type: 'update',
      data: [{ market_id: 1, size: '0', side: 'BUY' }],
      worker_timestamp: '1',
    });
    expect(positions.positions[0]).toMatchObject({ market_id: 1, size: '0', side: 'buy' });

    const fill = fillsFrameSchema.parse({
      channel: 'fills',
      type: 'update',
      data: {
        id: 'f1',
        market_id: 1,
        order_id: '0xab',
        side: 'SELL',
        price: '100.0',
        size: '2',
        fee: '-0.1',
        time: '1700000000000000001',
        liquidity_indicator: 'MAKER',
      },
      worker_timestamp: '1',
    });
    expect(fill.fill).toMatchObject({ price: '100', fee: '-0.1', time: 1_700_000_000_000_000_001n, side: 'sell' });

    const account = accountFrameSchema.parse({
      channel: 'account',
      type: 'update',
      data: { balance: '-12.50' },
      worker_timestamp: '1',
    });
    expect(account.account.balance).toBe('-12.5');
  });

  it('refuse an unknown order status and a float amount', () => {
    const bad = {
      channel: 'orders',
      type: 'update',
      data: [{ order_id: '0x1', market_id: 1, status: 'OPEN' }],
      worker_timestamp: '1',
    };
    expect(ordersFrameSchema.safeParse(bad).success).toBe(false);
    const float = { channel: 'account', type: 'update', data: { balance: 1.5 }, worker_timestamp: '1' };
    expect(accountFrameSchema.safeParse(float).success).toBe(false);
  });
});

describe('client and control frames', () => {
  it('accept subscribe with market ids and makers, and strip unknown params', () => {
    const f = subscribeFrameSchema.parse({
      method: 'subscribe',
      params: { channel: 'orderbook', market_ids: [1, 2], marketIds: [3] },
    });
    expect(f.params).toEqual({ channel: 'orderbook', market_ids: [1, 2] });
    expect(
      clientFrameSchema.parse({ method: 'subscribe', params: { channel: 'account', makers: [ACCOUNT] } }).method,
    ).toBe('subscribe');
    // Integers as digit strings are read as numbers (protojson, venue-wire.md §4.4); anything else is refused.
    expect(
      subscribeFrameSchema.parse({ method: 'subscribe', params: { channel: 'x', market_ids: ['1'] } }).params
        .market_ids,
    ).toEqual([1]);
    for (const id of ['01', 'one', 1.5, -1])
      expect(
        subscribeFrameSchema.safeParse({ method: 'subscribe', params: { channel: 'x', market_ids: [id] } }).success,
        String(id),
      ).toBe(false);
  });

  it('accept auth_v2 with and without expiration, and refuse a non-hex signature', () => {
    const params = {
      account: ACCOUNT,
      signer: SIGNER,
      message: 'WebSocket Authentication',
      nonce: '0x01',
      signature: '0xdead',
    };
    expect(authV2FrameSchema.safeParse({ method: 'auth_v2', params }).success).toBe(true);
    expect(
      authV2FrameSchema.safeParse({ method: 'auth_v2', params: { ...params, expiration: '1800000000' } }).success,
    ).toBe(true);
    expect(
      authV2FrameSchema.safeParse({ method: 'auth_v2', params: { ...params, signature: 'base64==' } }).success,
    ).toBe(false);
    expect(clientFrameSchema.parse({ method: 'auth', params: { token: 'jwt' } }).method).toBe('auth');
  });

  it('tell acks, auth replies and errors apart', () => {
    const ack = {
      type: 'subscribed',
      method: 'subscribe',
      status: 'success',
      message: 'oracle: 1 market',
      channel: 'oracle',
      data: { market_ids: [1] },
    };
    expect(controlFrameSchema.parse(ack)).toEqual(ack);
    expect(authReplySchema.parse({ method: 'auth_v2', status: 'error', message: 'bad nonce' }).status).toBe('error');
    const unsub = controlFrameSchema.parse({
      type: 'unsubscribed',
      method: 'unsubscribe',
      status: 'success',
      channel: 'oracle',
    });
    expect('type' in unsub && unsub.type).toBe('unsubscribed');
  });

  it('find the channel an error frame is about', () => {
    expect(errorFrameChannel(errorFrameSchema.parse({ type: 'error', message: 'invalid channel: foo' }))).toBe('foo');
    expect(
      errorFrameChannel(
        errorFrameSchema.parse({ type: 'error', message: 'authentication required for orders channel' }),
      ),
    ).toBe('orders');
    expect(errorFrameChannel(errorFrameSchema.parse({ type: 'error', message: 'x', channel: 'fills' }))).toBe('fills');
    expect(errorFrameChannel(errorFrameSchema.parse({ type: 'error', message: 'something else' }))).toBeUndefined();
    // A status-prefixed text (the REST errors' shape) names its channel too.
    expect(
      errorFrameChannel(errorFrameSchema.parse({ type: 'error', message: 'InvalidArgument: invalid channel: foo' })),
    ).toBe('foo');
    expect(
      errorFrameChannel(
        errorFrameSchema.parse({
          type: 'error',
          message: 'Unauthenticated: authentication required for fills channel',
        }),
      ),
    ).toBe('fills');
    expect(
      errorFrameChannel(
        errorFrameSchema.parse({ type: 'error', message: 'InvalidArgument: malformed frame: not JSON' }),
      ),
    ).toBeUndefined();
  });

  it('keep the status name of an error frame or a refused auth reply', () => {
    const error = controlFrameSchema.parse({
      type: 'error',
      status: 'error',
      code: 'InvalidArgument',
      message: 'InvalidArgument: malformed frame: not JSON',
    });
    expect(error).toMatchObject({ type: 'error', code: 'InvalidArgument' });
    const refused = controlFrameSchema.parse({
      method: 'auth_v2',
      status: 'error',
      code: 'InvalidArgument',
      message: 'InvalidArgument: malformed auth_v2 frame at params',
    });
    expect(refused).toEqual({
      method: 'auth_v2',
      status: 'error',
      code: 'InvalidArgument',
      message: 'InvalidArgument: malformed auth_v2 frame at params',
    });
  });
});

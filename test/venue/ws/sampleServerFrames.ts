/**
 * One valid frame of every kind the venue sends (venue-wire.md §3 shapes, the simulator's choices
 * where the venue's are unknown): the seeds the decoder property tests mutate.
 */

const ENVELOPE = {
  worker_timestamp: '1700000000000000000',
  block_number: 7,
  log_index: 0,
  tx_hash: `0x${'ab'.repeat(32)}`,
};
const ACCOUNT = '0x1111111111111111111111111111111111111111';

export const SAMPLE_CHANNEL_FRAMES: readonly Record<string, unknown>[] = [
  {
    channel: 'oracle',
    type: 'update',
    market_id: null,
    data: {
      prices: {
        '1': { index_price: '65000500000000000000000', mark_price: '65001000000000000000000' },
        '2': { mark_price: '3000000000000000000000' },
      },
      timestamp: 1_700_000_000,
    },
    ...ENVELOPE,
  },
  {
    method: 'update',
    channel: 'orderbook',
    type: 'update',
    market_id: '1',
    data: {
      market_id: 1,
      bids: [{ price: '64990', quantity: '1.5', order_count: 2 }],
      asks: [{ price: '65010.25', quantity: '0', order_count: 0 }],
    },
    level_count: 2,
    checksum: 123_456,
    worker_timestamp: '1700000000000000000',
    block_number: 7,
    log_index: 0,
  },
  {
    channel: 'trades',
    type: 'update',
    market_id: 1,
    data: {
      id: '9',
      maker_order_id: '0x01',
      taker_order_id: '0x02',
      maker: ACCOUNT,
      taker: ACCOUNT,
      maker_side: 0,
      price: '65000.5',
      size: '0.5',
      fee_maker: '0.1',
      fee_taker: '0.2',
      fee_liquidation: '0',
    },
    ...ENVELOPE,
  },
  {
    channel: 'orders',
    type: 'snapshot',
    data: [
      {
        order_id: '0xabc',
        market_id: 1,
        status: 'ORDER_STATUS_OPEN',
        side: 0,
        account: ACCOUNT,
        size_steps: 100,
        price_ticks: '650000',
        filled_size: '0',
        client_order_id: '7',
      },
    ],
    ...ENVELOPE,
  },
  {
    channel: 'positions',
    type: 'update',
    data: [
      {
        market_id: '1',
        size: '0.5',
        side: 'BUY',
        account: ACCOUNT,
        margin_mode: 0,
        isolated_usdc_balance: '0',
        leverage: 10,
        avg_entry_price: '65000',
      },
    ],
    ...ENVELOPE,
  },
  {
    channel: 'fills',
    type: 'update',
    data: {
      id: 3,
      market_id: 1,
      order_id: '0xabc',
      side: 'SELL',
      price: '65000',
      size: '0.5',
      fee: '0.1',
      time: '1700000000000000000',
      liquidity_indicator: 'MAKER',
      realized_pnl: '-1.5',
    },
    ...ENVELOPE,
  },
  {
    channel: 'account',
    type: 'snapshot',
    data: { balance: '-12.5', account: ACCOUNT, equity: '100' },
    worker_timestamp: '1',
  },
];

export const SAMPLE_CONTROL_FRAMES: readonly Record<string, unknown>[] = [
  {
    type: 'subscribed',
    method: 'subscribe',
    status: 'success',
    message: 'subscribed to trades for all markets',
    channel: 'trades',
    data: { market_ids: [1, 2, 3, 4] },
  },
  {
    type: 'subscribed',
    method: 'subscribe',
    status: 'error',
    channel: 'fills',
    message: 'authentication required for fills channel',
  },
  {
    type: 'unsubscribed',
    method: 'unsubscribe',
    status: 'success',
    message: 'unsubscribed from trades',
    channel: 'trades',
  },
  {
    type: 'error',
    status: 'error',
    code: 'InvalidArgument',
    message: 'invalid channel: nope',
    method: 'subscribe',
    channel: 'nope',
  },
  {
    method: 'auth_v2',
    status: 'error',
    code: 'Unauthenticated',
    message: 'Unauthenticated: invalid signature',
    data: { account: ACCOUNT, signer: ACCOUNT },
  },
];

import { describe, expect, it } from 'vitest';
import { reportLeftOnVenue } from '../../../src/runtime/bot/reportLeftOnVenue.js';
import type { RestClient } from '../../../src/venue/rest/restClient.js';
import type { Position } from '../../../src/venue/schemas/restAccount.js';
import { positionRecord as position } from '../../venue/state/venueRecords.js';
import type { OpenOrder } from '../../../src/venue/schemas/restOrders.js';

const ACCOUNT = '0x1111111111111111111111111111111111111111';

const RESTING: OpenOrder = {
  order_id: `0x${'ab'.repeat(24)}`,
  resting_order_id: 5n,
  wide_order_id: 10n,
  market_id: '1',
  account: ACCOUNT,
  side: 1,
  size_steps: 15,
  price_ticks: 640_000,
  order_type: 1,
  time_in_force: 0,
  post_only: true,
  reduce_only: false,
};

type Reads = Pick<RestClient, 'openOrders' | 'position' | 'crossMarginBalance'>;

function venue(orders: OpenOrder[], held: Position): Reads {
  return {
    openOrders: async () => ({ orders, total_orders: orders.length }),
    position: async () => held,
    crossMarginBalance: async () => ({ balance: '100' }),
  };
}

function logger() {
  const lines: { level: string; fields: Record<string, unknown>; msg: string }[] = [];
  return {
    lines,
    info: (fields: object, msg?: string) =>
      void lines.push({ level: 'info', fields: fields as Record<string, unknown>, msg: msg ?? '' }),
    warn: (fields: object, msg?: string) =>
      void lines.push({ level: 'warn', fields: fields as Record<string, unknown>, msg: msg ?? '' }),
  };
}

describe('reportLeftOnVenue', () => {
  it('says nothing is left when the venue holds no order and no position', async () => {
    const log = logger();
    await reportLeftOnVenue(venue([], position(null, null)), ACCOUNT, [1], log);
    expect(log.lines).toEqual([
      {
        level: 'info',
        fields: { markets: [1] },
        msg: 'left on the venue at exit: nothing (no open orders, no positions)',
      },
    ]);
  });

  it('lists each open order and each position the venue still holds', async () => {
    const log = logger();
    await reportLeftOnVenue(venue([RESTING], position('-0.002', 'SELL')), ACCOUNT, [1], log);
    expect(log.lines).toEqual([
      {
        level: 'warn',
        fields: {
          markets: [1],
          openOrders: [{ marketId: 1, orderId: RESTING.order_id, side: 'sell', sizeSteps: 15, priceTicks: 640_000 }],
          positions: [{ marketId: 1, side: 'sell', size: '0.002' }],
        },
        msg: 'left on the venue at exit: 1 open order(s), 1 position(s)',
      },
    ]);
  });

  it('says so when the venue cannot be read: silence would read as nothing left', async () => {
    const log = logger();
    const down: Reads = {
      ...venue([], position(null, null)),
      crossMarginBalance: () => Promise.reject(new Error('connect ECONNREFUSED')),
    };
    await reportLeftOnVenue(down, ACCOUNT, [1], log);
    expect(log.lines.map((l) => [l.level, l.msg])).toEqual([
      ['warn', 'left on the venue at exit: unknown, the venue could not be read; check with perpbot status'],
    ]);
  });
});

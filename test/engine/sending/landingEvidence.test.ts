import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import {
  LANDING_HISTORY_WINDOW_MS,
  readLandingEvidence,
  type LandingReader,
} from '../../../src/engine/sending/landingEvidence.js';
import { OrderTracker } from '../../../src/engine/tracking/orderTracker.js';
import type { ResolvedAction } from '../../../src/engine/checks/wireAction.js';
import type { OrderHistoryRecord } from '../../../src/venue/schemas/restHistory.js';
import type { OpenOrder } from '../../../src/venue/schemas/restOrders.js';

const ACCOUNT = '0x00000000000000000000000000000000000000a1';
const ORDER_ID = '0x00000000000000F2AA';
const cancelAction: ResolvedAction = {
  action: 'cancelOrder',
  market_id: 1,
  order_id: ORDER_ID,
  resting_order_id: 0x79n,
};

function order(orderId: string): OpenOrder {
  return {
    order_id: orderId,
    resting_order_id: 1n,
    wide_order_id: 2n,
    market_id: '1',
    account: ACCOUNT,
    side: 0,
    size_steps: 1,
    price_ticks: 1,
    order_type: 1,
    time_in_force: 0,
    post_only: false,
    reduce_only: false,
  };
}

/** Pages of open orders as a venue serves them (start_index honoured, total_orders optional). */
function reader(
  all: OpenOrder[],
  options: { total?: boolean; pageSize?: number } = {},
  tracker = new OrderTracker(),
): LandingReader & { starts: string[] } {
  const starts: string[] = [];
  const pageSize = options.pageSize ?? 1000;
  return {
    starts,
    account: ACCOUNT,
    tracker,
    clock: new ManualClock(),
    feedWaitMs: 0,
    rest: {
      openOrders: async (query) => {
        starts.push(query.start_index?.toString() ?? '0');
        const start = Number(query.start_index ?? '0');
        return {
          orders: all.slice(start, start + pageSize),
          ...(options.total === false ? {} : { total_orders: all.length }),
        };
      },
      position: async () => {
        throw new Error('not read here');
      },
    },
  };
}

/** The reader with the venue's order-by-id read: the order's history record has `status`, or the read fails. */
function withHistory(
  r: ReturnType<typeof reader>,
  status: OrderHistoryRecord['status'] | Error,
): ReturnType<typeof reader> & { byId: string[] } {
  const byId: string[] = [];
  return {
    ...r,
    byId,
    rest: {
      ...r.rest,
      orderById: async (orderId) => {
        byId.push(orderId);
        if (status instanceof Error) throw status;
        return {
          id: orderId,
          market_id: '1',
          side: 'BUY',
          type: 'LIMIT',
          status,
          price: '1',
          size: '1',
          filled_size: status === 'ORDER_STATUS_FILLED' ? '1' : '0',
          avg_price: undefined,
          created_at: 1n,
        };
      },
    },
  };
}

describe('readLandingEvidence for a cancel', () => {
  it('finds the order on a later page, whatever the case and 0x prefix of its id', async () => {
    const others = Array.from({ length: 1500 }, (_, i) => order(`0x${(i + 1).toString(16).padStart(18, '0')}`));
    const r = reader([...others, order('00000000000000f2aa')]);
    expect((await readLandingEvidence(r, 'c', cancelAction)).kind).toBe('not_in_effect');
    expect(r.starts).toEqual(['0', '1000']);
  });

  it('reads every page before calling the order gone; pages without total_orders end at a short page', async () => {
    const others = Array.from({ length: 1200 }, (_, i) => order(`0x${(i + 1).toString(16).padStart(18, '0')}`));
    const r = withHistory(reader(others, { total: false }), 'ORDER_STATUS_CANCELLED');
    expect(await readLandingEvidence(r, 'c', cancelAction)).toMatchObject({
      kind: 'in_effect',
      detail: expect.stringMatching(/no longer open on the venue: its history shows it cancelled/),
    });
    expect(r.starts).toEqual(['0', '1000']);
    expect(r.byId).toEqual([ORDER_ID]);
  });

  it('a gone order whose history shows it filled: nothing left to cancel, not the cancel in effect', async () => {
    const r = withHistory(reader([]), 'ORDER_STATUS_FILLED');
    expect(await readLandingEvidence(r, 'c', cancelAction)).toEqual({
      kind: 'target_finished',
      detail: `order ${ORDER_ID} is no longer open on the venue: its history shows ORDER_STATUS_FILLED`,
    });
  });

  it('a gone order whose history cannot be read (or without a history to read) is left to the feeds', async () => {
    const failing = withHistory(reader([]), new Error('HTTP 503'));
    expect(await readLandingEvidence(failing, 'c', cancelAction)).toEqual({
      kind: 'target_finished',
      detail: `order ${ORDER_ID} is no longer open on the venue, and reading its history failed (HTTP 503)`,
    });
    expect((await readLandingEvidence(reader([]), 'c', cancelAction)).kind).toBe('target_finished');
  });

  it('takes the orders channel at its word when it already shows the order filled: nothing left to cancel', async () => {
    const tracker = new OrderTracker();
    tracker.submitted({ intentId: 'p', strategy: 's', marketId: 1, side: 'buy', size: '1', price: '1' });
    tracker.placed('p', ORDER_ID);
    tracker.onOrderRecords([{ order_id: ORDER_ID, market_id: 1, status: 'ORDER_STATUS_FILLED' }], false);
    const r = withHistory(reader([], {}, tracker), 'ORDER_STATUS_CANCELLED');
    expect((await readLandingEvidence(r, 'c', cancelAction)).kind).toBe('target_finished');
    expect(r.starts).toEqual([]);
    expect(r.byId).toEqual([]);
  });

  it('cannot tell when a venue keeps serving full pages past the page limit', async () => {
    const full = Array.from({ length: 1000 }, (_, i) => order(`0x${(i + 1).toString(16).padStart(18, '0')}`));
    const r = reader(full, { total: false });
    // A venue that ignores start_index: page one again and again.
    r.rest.openOrders = async () => ({ orders: full });
    expect((await readLandingEvidence(r, 'c', cancelAction)).kind).toBe('cannot_tell');
  });

  it('takes the orders channel at its word when it already shows the order cancelled', async () => {
    const tracker = new OrderTracker();
    tracker.submitted({ intentId: 'p', strategy: 's', marketId: 1, side: 'buy', size: '1', price: '1' });
    tracker.placed('p', ORDER_ID);
    tracker.onOrderRecords([{ order_id: ORDER_ID, market_id: 1, status: 'ORDER_STATUS_CANCELLED' }], false);
    const r = reader([order(ORDER_ID)], {}, tracker);
    expect((await readLandingEvidence(r, 'c', cancelAction)).kind).toBe('in_effect');
    expect(r.starts).toEqual([]);
  });
});

describe('readLandingEvidence for a placement whose answer was lost', () => {
  const NOW = 1_700_000_000_000;
  const placeAction: ResolvedAction = {
    action: 'placeOrder',
    order: {
      market_id: 1,
      size_steps: 15,
      price_ticks: 300_000,
      side: 0,
      post_only: false,
      reduce_only: false,
      stp_mode: 0,
      order_type: 1,
      time_in_force: 2,
      client_order_id: 42n,
    },
    size: '0.00015',
    price: '30000',
  };
  const historyOrder = (id: string, coid: string | undefined, createdMs: number): OrderHistoryRecord => ({
    id,
    market_id: '1',
    side: 'BUY',
    type: 'LIMIT',
    status: 'ORDER_STATUS_FILLED',
    price: '30000',
    size: '0.00015',
    filled_size: '0.00015',
    avg_price: '29990',
    created_at: BigInt(createdMs) * 1_000_000n,
    ...(coid === undefined ? {} : { client_order_id: BigInt(coid) }),
  });

  /** No open order (an IOC filled at once is never open); the history newest first, in pages of 100. */
  function placementReader(history: OrderHistoryRecord[] | 'none') {
    const pages: number[] = [];
    const r = reader([]);
    const clock = new ManualClock(NOW);
    return {
      pages,
      reader: {
        ...r,
        clock,
        rest: {
          ...r.rest,
          ...(history === 'none'
            ? {}
            : {
                orderHistory: async (q: { page?: number; limit?: number }) => {
                  pages.push(q.page ?? 1);
                  const limit = q.limit ?? 100;
                  const start = ((q.page ?? 1) - 1) * limit;
                  return {
                    orders: history.slice(start, start + limit),
                    page: q.page ?? 1,
                    has_next_page: start + limit < history.length,
                  };
                },
              }),
        },
      } satisfies LandingReader,
    };
  }

  it('finds an order that filled (or was cancelled) at once in the order history by its client_order_id', async () => {
    const others = Array.from({ length: 150 }, (_, i) =>
      historyOrder(`0x${(i + 10).toString(16).padStart(64, '0')}`, String(1000 + i), NOW - 1000),
    );
    const mine = `0x${'f2'.padStart(64, '0')}`;
    const { reader: r, pages } = placementReader([...others, historyOrder(mine, '42', NOW - 2000)]);
    expect(await readLandingEvidence(r, 'p', placeAction)).toMatchObject({
      kind: 'in_effect',
      orderId: mine,
      detail: expect.stringMatching(/order history \(FILLED, filled 0.00015 of 0.00015\)/),
    });
    expect(pages).toEqual([1, 2]);
  });

  it('stops at orders older than the window and cannot tell; without history reads it cannot tell either', async () => {
    const old = historyOrder(`0x${'f3'.padStart(64, '0')}`, '42', NOW - LANDING_HISTORY_WINDOW_MS - 1);
    const { reader: r, pages } = placementReader([historyOrder(`0x${'f4'.padStart(64, '0')}`, '7', NOW), old]);
    expect((await readLandingEvidence(r, 'p', placeAction)).kind).toBe('cannot_tell');
    expect(pages).toEqual([1]);
    expect((await readLandingEvidence(placementReader('none').reader, 'p', placeAction)).kind).toBe('cannot_tell');
  });
});

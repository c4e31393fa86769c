import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { readLandingEvidence, type LandingReader } from '../../src/engine/landingEvidence.js';
import { OrderTracker } from '../../src/engine/orderTracker.js';
import type { ResolvedAction, SignedRequest } from '../../src/engine/signedRequest.js';
import type { OpenOrder } from '../../src/venue/schemas/restOrders.js';

const ACCOUNT = '0x00000000000000000000000000000000000000a1';
const ORDER_ID = '0x00000000000000F2AA';
const cancelAction: ResolvedAction = { action: 'cancelOrder', market_id: 1, order_id: ORDER_ID, resting_order_id: 0x79n };
const request: SignedRequest = { endpoint: 'cancelOrder', body: {}, actionHash: `0x${'00'.repeat(32)}` };

function order(orderId: string): OpenOrder {
  return { order_id: orderId, resting_order_id: 1n, wide_order_id: 2n, market_id: '1', account: ACCOUNT, side: 0, size_steps: 1, price_ticks: 1, order_type: 1, time_in_force: 0, post_only: false, reduce_only: false } as OpenOrder;
}

/** Pages of open orders as a venue serves them (start_index honoured, total_orders optional). */
function reader(all: OpenOrder[], options: { total?: boolean; pageSize?: number } = {}, tracker = new OrderTracker()): LandingReader & { starts: string[] } {
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
        return { orders: all.slice(start, start + pageSize), ...(options.total === false ? {} : { total_orders: all.length }) };
      },
      position: async () => {
        throw new Error('not read here');
      },
    },
  };
}

describe('readLandingEvidence for a cancel', () => {
  it('finds the order on a later page, whatever the case and 0x prefix of its id', async () => {
    const others = Array.from({ length: 1500 }, (_, i) => order(`0x${(i + 1).toString(16).padStart(18, '0')}`));
    const r = reader([...others, order('00000000000000f2aa')]);
    expect((await readLandingEvidence(r, 'c', cancelAction, request)).kind).toBe('not_in_effect');
    expect(r.starts).toEqual(['0', '1000']);
  });

  it('reads every page before calling the order gone; pages without total_orders end at a short page', async () => {
    const others = Array.from({ length: 1200 }, (_, i) => order(`0x${(i + 1).toString(16).padStart(18, '0')}`));
    const r = reader(others, { total: false });
    expect(await readLandingEvidence(r, 'c', cancelAction, request)).toMatchObject({ kind: 'in_effect', detail: expect.stringMatching(/no longer open/) });
    expect(r.starts).toEqual(['0', '1000']);
  });

  it('cannot tell when a venue keeps serving full pages past the page limit', async () => {
    const full = Array.from({ length: 1000 }, (_, i) => order(`0x${(i + 1).toString(16).padStart(18, '0')}`));
    const r = reader(full, { total: false });
    // A venue that ignores start_index: page one again and again.
    r.rest.openOrders = async () => ({ orders: full });
    expect((await readLandingEvidence(r, 'c', cancelAction, request)).kind).toBe('cannot_tell');
  });

  it('takes the orders channel at its word when it already shows the order cancelled', async () => {
    const tracker = new OrderTracker();
    tracker.pending({ intentId: 'p', strategy: 's', marketId: 1, side: 'buy', size: '1', price: '1' });
    tracker.placed('p', ORDER_ID);
    tracker.onOrderRecords([{ order_id: ORDER_ID, market_id: 1, status: 'ORDER_STATUS_CANCELLED' }], false);
    const r = reader([order(ORDER_ID)], {}, tracker);
    expect((await readLandingEvidence(r, 'c', cancelAction, request)).kind).toBe('in_effect');
    expect(r.starts).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import {
  FINISHED_ORDERS_KEPT,
  OrderTracker,
  type OrderState,
  type TrackedFill,
} from '../../../src/engine/tracking/orderTracker.js';
import type { FillRecord, OrderRecord } from '../../../src/venue/schemas/wsFramesPrivate.js';

const ORDER_ID = '0x00000000000000f2aa';

function tracked(clientOrderId?: bigint): OrderTracker {
  const tracker = new OrderTracker();
  tracker.submitted({
    intentId: 'i-1',
    strategy: 's',
    marketId: 1,
    side: 'sell',
    size: '0.002',
    price: '66000',
    ...(clientOrderId === undefined ? {} : { clientOrderId }),
  });
  return tracker;
}

function record(status: OrderRecord['status'], extra: Partial<OrderRecord> = {}): OrderRecord {
  return { order_id: ORDER_ID, market_id: 1, status, ...extra };
}

function fill(id: string, size: string): FillRecord {
  return {
    id,
    market_id: 1,
    order_id: ORDER_ID,
    side: 'sell',
    price: '66000',
    size,
    fee: '0.01',
    time: 1n,
    liquidity_indicator: 'MAKER',
  };
}

function states(tracker: OrderTracker): OrderState[] {
  const seen: OrderState[] = [];
  tracker.orders$.subscribe((o) => seen.push(o.state));
  return seen;
}

describe('OrderTracker', () => {
  it('moves an order open → partially filled → filled from fills, counting a repeated fill once', () => {
    const tracker = tracked();
    const seen = states(tracker);
    const fills: TrackedFill[] = [];
    tracker.fills$.subscribe((f) => fills.push(f));
    tracker.placed('i-1', ORDER_ID);

    expect(tracker.onFill(fill('f-1', '0.001'))?.intentId).toBe('i-1');
    expect(tracker.onFill(fill('f-1', '0.001'))).toBeUndefined();
    expect(tracker.order('i-1')).toMatchObject({ state: 'partially_filled', filledSize: '0.001' });
    tracker.onFill(fill('f-2', '0.001'));

    expect(tracker.order('i-1')?.state).toBe('filled');
    expect(seen).toEqual(['open', 'partially_filled', 'filled']);
    expect(fills.map((f) => f.id)).toEqual(['f-1', 'f-2']);
  });

  it('takes the filled size from an OPEN record (a partial fill stays OPEN on the venue) and never goes back from terminal', () => {
    const tracker = tracked();
    tracker.placed('i-1', ORDER_ID);
    tracker.onOrderRecords([record('ORDER_STATUS_OPEN', { filled_size: '0.0015' })], false);
    expect(tracker.order('i-1')).toMatchObject({ state: 'partially_filled', filledSize: '0.0015' });
    tracker.onOrderRecords([record('ORDER_STATUS_CANCELLED')], false);
    tracker.onOrderRecords([record('ORDER_STATUS_OPEN')], false);
    expect(tracker.order('i-1')?.state).toBe('cancelled');
  });

  it('adopts an order whose placement answer was lost, by its client_order_id', () => {
    const tracker = tracked(42n);
    tracker.settle('i-1', 'unknown');
    tracker.onOrderRecords([record('ORDER_STATUS_OPEN', { client_order_id: '42', resting_order_id: '7' })], false);
    expect(tracker.order('i-1')).toMatchObject({ state: 'open', orderId: ORDER_ID, restingOrderId: 7n });
    expect(tracker.foreignOrders()).toEqual([]);
    expect(tracker.onFill(fill('f-1', '0.002'))?.intentId).toBe('i-1');
  });

  it('adopts an order that filled at once (IOC) from its fill, by client_order_id, before any order record', () => {
    const tracker = tracked(42n);
    const filled = tracker.onFill({ ...fill('f-1', '0.002'), client_order_id: '42' });
    expect(filled).toMatchObject({ intentId: 'i-1', strategy: 's' });
    expect(tracker.order('i-1')).toMatchObject({ state: 'filled', orderId: ORDER_ID, filledSize: '0.002' });
    // The FILLED order record that follows changes nothing.
    tracker.onOrderRecords([record('ORDER_STATUS_FILLED', { client_order_id: '42', filled_size: '0.002' })], false);
    expect(tracker.order('i-1')).toMatchObject({ state: 'filled', filledSize: '0.002' });
    // Another client order id is not ours.
    const other = tracked(42n);
    expect(other.onFill({ ...fill('f-2', '0.002'), client_order_id: '43' })?.intentId).toBeUndefined();
    expect(other.order('i-1')?.state).toBe('submitted');
  });
  it('does not adopt for a failed placement or another client order id: those stay foreign', () => {
    const failed = tracked(42n);
    failed.settle('i-1', 'failed');
    failed.onOrderRecords([record('ORDER_STATUS_OPEN', { client_order_id: '42' })], false);
    expect(failed.order('i-1')?.state).toBe('failed');
    expect(failed.foreignOrders()).toEqual([{ orderId: ORDER_ID, marketId: 1 }]);

    const other = tracked(42n);
    other.onOrderRecords([record('ORDER_STATUS_OPEN', { client_order_id: '43' })], false);
    expect(other.order('i-1')?.state).toBe('submitted');
    expect(other.foreignOrders()).toHaveLength(1);
  });

  it('a snapshot that no longer lists an unfilled open order of ours closes it as cancelled', () => {
    const tracker = tracked();
    tracker.placed('i-1', ORDER_ID);
    tracker.onOrderRecords([], true);
    expect(tracker.order('i-1')?.state).toBe('cancelled');
  });

  it('a snapshot read before an order was accepted does not close it; one read after does', () => {
    const tracker = tracked();
    tracker.submitted({ intentId: 'i-2', strategy: 's', marketId: 1, side: 'sell', size: '0.001', price: '66100' });
    tracker.placed('i-1', ORDER_ID);
    const readFrom = tracker.readMark();
    tracker.placed('i-2', '0x00000000000000f2bb');
    expect(tracker.readMark()).toBe(readFrom + 1);
    tracker.onOrderRecords([], true, readFrom);
    expect(tracker.order('i-1')?.state).toBe('cancelled');
    expect(tracker.order('i-2')?.state).toBe('open');
    tracker.onOrderRecords([], true, tracker.readMark());
    expect(tracker.order('i-2')?.state).toBe('cancelled');
  });
});

describe('OrderTracker bounds', () => {
  it('counts resting orders per market as they change, and forgets the oldest finished orders', () => {
    const kept = FINISHED_ORDERS_KEPT;
    const tracker = new OrderTracker();
    const orderId = (i: number) => `0x${(BigInt(i) << 1n).toString(16).padStart(16, '0')}${'ab'.repeat(24)}`;
    const place = (i: number, marketId: number) => {
      tracker.submitted({ intentId: `i-${i}`, strategy: 's', marketId, side: 'buy', size: '1', price: '10' });
      tracker.placed(`i-${i}`, orderId(i));
    };
    place(1, 1);
    place(2, 1);
    place(3, 2);
    expect(tracker.accountState().openOrders).toEqual(
      new Map([
        [1, 2],
        [2, 1],
      ]),
    );
    tracker.cancelled(orderId(1));
    expect(tracker.accountState().openOrders).toEqual(
      new Map([
        [1, 1],
        [2, 1],
      ]),
    );
    tracker.cancelled(orderId(1));
    expect(tracker.accountState().openOrders.get(1)).toBe(1);

    for (let i = 10; i < 10 + kept + 5; i++) {
      place(i, 3);
      tracker.cancelled(orderId(i));
    }
    expect(tracker.order('i-1')).toBeUndefined(); // finished first, forgotten first
    expect(tracker.order('i-2')?.state).toBe('open'); // still resting: never forgotten
    expect(tracker.order(`i-${10 + kept + 4}`)?.state).toBe('cancelled');
    expect(tracker.orderByOrderId(orderId(10))).toBeUndefined();
    expect(tracker.accountState().openOrders).toEqual(
      new Map([
        [1, 1],
        [2, 1],
      ]),
    );
  });
});

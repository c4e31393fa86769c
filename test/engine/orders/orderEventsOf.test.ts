import { describe, expect, it } from 'vitest';
import type { OrderEvent } from '../../../src/engine/orders/orderEvent.js';
import { OrderTracker } from '../../../src/engine/tracking/orderTracker.js';
import type { TrackedOrder } from '../../../src/engine/orders/trackedOrder.js';

/** The tracker is the one order model: its transitions, as events, in order. */
function tracked() {
  let now = 1_000;
  const tracker = new OrderTracker(() => now++);
  const events: OrderEvent[] = [];
  const orders: TrackedOrder[] = [];
  tracker.events$.subscribe((e) => events.push(e));
  tracker.orders$.subscribe((o) => orders.push(o));
  const order = (intentId: string, extra: Partial<TrackedOrder> = {}) => ({
    intentId,
    strategy: 's',
    marketId: 1,
    side: 'buy' as const,
    size: '1',
    price: '100',
    ...extra,
  });
  const types = () => events.map((e) => `${e.intentId}:${e.type}`);
  return { tracker, events, orders, order, types };
}

const fill = (id: string, orderId: string, size: string) => ({
  id,
  market_id: 1,
  order_id: orderId,
  side: 'buy' as const,
  price: '100',
  size,
  fee: '0',
  liquidity_indicator: 'MAKER' as const,
});

describe('the order model: every transition one event', () => {
  it('queued, submitted, placed, partially filled, filled: in order, each once, with what is left', () => {
    const t = tracked();
    t.tracker.queued(t.order('a'));
    t.tracker.submitted(t.order('a', { clientOrderId: 7n }));
    t.tracker.placed('a', '0xaa');
    t.tracker.onFill(fill('f1', '0xaa', '0.25') as never);
    t.tracker.onFill(fill('f2', '0xaa', '0.75') as never);
    expect(t.types()).toEqual(['a:queued', 'a:submitted', 'a:placed', 'a:partially_filled', 'a:filled']);
    expect(t.events.map((e) => [e.filledSize, e.remainingSize])).toEqual([
      ['0', '1'],
      ['0', '1'],
      ['0', '1'],
      ['0.25', '0.75'],
      ['1', '0'],
    ]);
    expect(t.events[4]).toMatchObject({ lastFillSize: '0.75', orderId: '0xaa', price: '100' });
    expect(t.events.map((e) => e.atMs)).toEqual([...t.events.map((e) => e.atMs)].sort());
    // The journal's stream starts once the order is sent.
    expect(t.orders.map((o) => o.state)).toEqual(['submitted', 'open', 'partially_filled', 'filled']);
  });

  it('a queued order is listed as queued; a cancel ends it at once, nothing sent, and the journal never sees it', () => {
    const t = tracked();
    t.tracker.queued(t.order('q'));
    expect(t.tracker.openOrders().map((o) => [o.intentId, o.state])).toEqual([['q', 'queued']]);
    expect(t.tracker.requestCancel('q')).toBe(true);
    expect(t.tracker.openOrders()).toEqual([]);
    expect(t.events.map((e) => [e.type, 'requested' in e ? e.requested : undefined])).toEqual([
      ['queued', undefined],
      ['cancelled', true],
    ]);
    expect(t.orders).toEqual([]);
    // Its late admission changes nothing: it never becomes in flight.
    t.tracker.submitted(t.order('q'));
    expect(t.tracker.order('q')?.state).toBe('cancelled');
  });

  it('a placement our checks refused ends `refused` with its rule and who refused it; an IOC that ends unfilled expired; a resting order cancelled by us is requested', () => {
    const t = tracked();
    t.tracker.queued(t.order('r'));
    t.tracker.settle('r', 'refused', { code: 'price_tick', reason: 'off the grid', by: 'checks' });
    t.tracker.queued(t.order('v'));
    t.tracker.submitted(t.order('v'));
    t.tracker.settle('v', 'failed');
    t.tracker.queued(t.order('i', { expires: true }));
    t.tracker.submitted(t.order('i'));
    t.tracker.placed('i', '0xii');
    t.tracker.onOrderRecords([{ order_id: '0xii', market_id: 1, status: 'ORDER_STATUS_CANCELLED' } as never], false);
    t.tracker.queued(t.order('c'));
    t.tracker.submitted(t.order('c'));
    t.tracker.placed('c', '0xcc');
    t.tracker.requestCancel('c');
    t.tracker.cancelled('0xcc');
    const last = (id: string) => t.events.filter((e) => e.intentId === id).at(-1);
    expect(last('r')).toMatchObject({ type: 'refused', code: 'price_tick', reason: 'off the grid', by: 'checks' });
    expect(last('v')).toMatchObject({ type: 'refused', code: 'FAILED', by: 'venue' });
    expect(t.events.filter((e) => e.intentId === 'c').map((e) => e.type)).toEqual([
      'queued',
      'submitted',
      'placed',
      'cancelled',
    ]);
    expect(last('c')).toMatchObject({ requested: true });
    expect(t.events.filter((e) => e.intentId === 'i').map((e) => e.type)).toEqual([
      'queued',
      'submitted',
      'placed',
      'expired',
    ]);
  });

  it('an order that has ended and learns of more filled hears the fill, not a second end; filled in full per its fills, filled', () => {
    const t = tracked();
    t.tracker.submitted(t.order('gone'));
    t.tracker.placed('gone', '0xdd');
    // A snapshot no longer lists it, its fills unseen: cancelled (filled or cancelled could not be told).
    t.tracker.onOrderRecords([], true);
    t.tracker.infer('gone', { type: 'fills_counted', cause: 'journaled_fills', fillSum: '0.4' });
    t.tracker.infer('gone', { type: 'fills_counted', cause: 'journaled_fills', fillSum: '1' });
    expect(t.events.filter((e) => e.intentId === 'gone').map((e) => `${e.type} ${e.filledSize}`)).toEqual([
      'submitted 0',
      'placed 0',
      'cancelled 0',
      'partially_filled 0.4',
      'filled 1',
    ]);
    expect(t.tracker.causeOf(t.tracker.order('gone')!)).toBe('journaled_fills');
  });
});

import { describe, expect, it } from 'vitest';
import { FINISHED_ORDERS_KEPT, OrderRegistry } from '../../../src/engine/tracking/orderRegistry.js';
import {
  isTerminal,
  trackedOrder,
  type OrderState,
  type TrackedOrder,
} from '../../../src/engine/orders/trackedOrder.js';

function order(i: number, state: OrderState, ids: { orderId?: string; clientOrderId?: bigint } = {}): TrackedOrder {
  const base = { intentId: `i-${i}`, strategy: 's', marketId: 1, side: 'buy' as const, size: '1', price: '10' };
  return trackedOrder(
    ids.clientOrderId === undefined ? base : { ...base, clientOrderId: ids.clientOrderId },
    state,
    '0',
    ids.orderId,
  );
}

describe('OrderRegistry', () => {
  it('stores each new version, returning the one it replaces, and indexes the ids in any case', () => {
    const registry = new OrderRegistry();
    const pending = order(1, 'submitted', { clientOrderId: 42n });
    expect(registry.put(pending)).toBeUndefined();
    expect(registry.intentOfClientOrderId('42')).toBe('i-1');
    expect(registry.intentOfOrderId('0xABCD')).toBeUndefined();

    const open = order(1, 'open', { clientOrderId: 42n, orderId: '0xABCD' });
    expect(registry.put(open)).toBe(pending);
    expect(registry.get('i-1')).toBe(open);
    expect(registry.intentOfOrderId('0xabcd')).toBe('i-1');
    expect(registry.intentOfOrderId('0xAbCd')).toBe('i-1');
    expect([...registry.values()]).toEqual([open]);
  });

  it('lists the orders not finished in the order values() lists them, without the finished ones', () => {
    const registry = new OrderRegistry();
    for (let i = 0; i < 5; i++) registry.put(order(i, 'submitted'));
    registry.put(order(1, 'filled'));
    registry.put(order(3, 'open'));
    registry.put(order(5, 'queued'));
    const openIds = (): string[] => [...registry.open()].map((o) => o.intentId);
    const notFinished = (): string[] =>
      [...registry.values()].filter((o) => !isTerminal(o.state)).map((o) => o.intentId);
    expect(openIds()).toEqual(['i-0', 'i-2', 'i-3', 'i-4', 'i-5']);
    expect(openIds()).toEqual(notFinished());
    // Open again after it finished: listed in its first place, as values() has it.
    registry.put(order(1, 'open'));
    expect(openIds()).toEqual(['i-0', 'i-1', 'i-2', 'i-3', 'i-4', 'i-5']);
    registry.put(order(0, 'cancelled'));
    expect(openIds()).toEqual(notFinished());
  });

  it('sums the fills per intent exactly', () => {
    const registry = new OrderRegistry();
    expect(registry.addFill('i-1', '0.1')).toBe('0.1');
    expect(registry.addFill('i-1', '0.2')).toBe('0.3');
    expect(registry.addFill('i-2', '1')).toBe('1');
  });

  it('forgets the oldest finished order, with its ids and fill sum, once more than the bound are finished', () => {
    const registry = new OrderRegistry();
    registry.put(order(0, 'open', { orderId: '0x00', clientOrderId: 1n }));
    registry.addFill('i-0', '0.5');
    registry.put(order(0, 'filled', { orderId: '0x00', clientOrderId: 1n }));
    // Finishing the same order again does not count it twice.
    registry.put(order(0, 'filled', { orderId: '0x00', clientOrderId: 1n }));
    registry.put(order(1, 'open', { orderId: '0x01' }));
    for (let i = 2; i < FINISHED_ORDERS_KEPT + 1; i++) registry.put(order(i, 'cancelled'));
    expect(registry.get('i-0')?.state).toBe('filled'); // exactly at the bound: kept

    registry.put(order(FINISHED_ORDERS_KEPT + 1, 'refused'));
    expect(registry.get('i-0')).toBeUndefined();
    expect(registry.intentOfOrderId('0x00')).toBeUndefined();
    expect(registry.intentOfClientOrderId('1')).toBeUndefined();
    expect(registry.addFill('i-0', '0.1')).toBe('0.1'); // its sum went with it
    expect(registry.get('i-1')?.state).toBe('open'); // never finished: never forgotten
    expect(registry.get('i-2')?.state).toBe('cancelled');
  });
});

import { describe, expect, it } from 'vitest';
import { duplicateExecutions } from '../../../../../src/runtime/diagnostics/chaos/audit/duplicateExecutions.js';

describe('duplicateExecutions', () => {
  it('holds when every venue order carries its own client_order_id', () => {
    const result = duplicateExecutions([
      { orderId: '0xa1', marketId: 1, clientOrderId: '101', status: 'ORDER_STATUS_FILLED' },
      { orderId: '0xa2', marketId: 1, clientOrderId: '102', status: 'ORDER_STATUS_OPEN' },
    ]);
    expect(result.ok).toBe(true);
    expect(result.measured).toBe('0 of 2 venue orders');
    expect(result.data).toMatchObject({ extraExecutions: 0, ordersWithoutClientOrderId: 0 });
  });

  it('fails when one client_order_id was placed twice, naming it and both orders', () => {
    const result = duplicateExecutions([
      { orderId: '0xa1', marketId: 1, clientOrderId: '101', status: 'ORDER_STATUS_CANCELLED' },
      { orderId: '0xa2', marketId: 1, clientOrderId: '101', status: 'ORDER_STATUS_OPEN' },
      { orderId: '0xa3', marketId: 1, clientOrderId: '103', status: 'ORDER_STATUS_OPEN' },
    ]);
    expect(result.ok).toBe(false);
    expect(result.measured).toBe('1 of 3 venue orders');
    expect(result.detail).toContain('101 (orders 0xa1, 0xa2)');
  });

  it('counts orders without a client_order_id apart, without failing on them', () => {
    const result = duplicateExecutions([
      { orderId: '0xa1', marketId: 1, status: 'ORDER_STATUS_OPEN' },
      { orderId: '0xa2', marketId: 1, clientOrderId: '0', status: 'ORDER_STATUS_OPEN' },
    ]);
    expect(result.ok).toBe(true);
    expect(result.data['ordersWithoutClientOrderId']).toBe(2);
  });
});

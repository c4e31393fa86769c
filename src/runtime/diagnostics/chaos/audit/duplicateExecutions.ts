import type { VenueOrder } from '../venueTruth.js';
import { firstFew, type InvariantResult } from './invariant.js';

/**
 * No intent executed twice: the engine gives every placement its own client_order_id, so two
 * venue orders carrying the same one are one intent placed twice (a resend after a lost reply
 * that the venue took both times). Orders without one are counted: the engine never sends them.
 */
export function duplicateExecutions(orders: readonly VenueOrder[]): InvariantResult {
  const byClientId = new Map<string, string[]>();
  let withoutClientId = 0;
  for (const order of orders) {
    if (order.clientOrderId === undefined || order.clientOrderId === '0') {
      withoutClientId += 1;
      continue;
    }
    const ids = byClientId.get(order.clientOrderId) ?? [];
    ids.push(order.orderId);
    byClientId.set(order.clientOrderId, ids);
  }
  const duplicated = [...byClientId].filter(([, ids]) => ids.length > 1);
  const extra = duplicated.reduce((sum, [, ids]) => sum + ids.length - 1, 0);
  return {
    id: 'duplicate_executions',
    title: 'duplicate executions',
    ok: duplicated.length === 0,
    measured: `${extra} of ${orders.length} venue orders`,
    ...(duplicated.length === 0
      ? {}
      : {
          detail: `client_order_id placed more than once: ${firstFew(duplicated.map(([coid, ids]) => `${coid} (orders ${ids.join(', ')})`))}`,
        }),
    data: {
      venueOrders: orders.length,
      duplicatedClientOrderIds: duplicated.length,
      extraExecutions: extra,
      ordersWithoutClientOrderId: withoutClientId,
    },
  };
}

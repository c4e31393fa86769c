import { describe, expect, it } from 'vitest';
import { orderIdHex, restingOrderIdOf, wideFromOrderId, wideOrderId } from '../../../src/sim/exchange/orderIds.js';
import { ALICE, T0, limit, quietExchange } from './exchangeFixture.js';

describe('order identity', () => {
  it.each([
    { sequence: 1n, side: 0 as const, wide: 2n },
    { sequence: 1n, side: 1 as const, wide: 3n },
    { sequence: 12345n, side: 1 as const, wide: 24691n },
    { sequence: (1n << 63n) - 1n, side: 1 as const, wide: (1n << 64n) - 1n },
  ])('sequence $sequence side $side → wide $wide, resting = wide >> 1', ({ sequence, side, wide }) => {
    expect(wideOrderId(sequence, side)).toBe(wide);
    expect(restingOrderIdOf(wide)).toBe(sequence);
  });

  it('refuses sequences that do not fit 64 bits', () => {
    expect(() => wideOrderId(1n << 63n, 0)).toThrow(/order sequence/);
    expect(() => wideOrderId(0n, 0)).toThrow(/order sequence/);
  });

  it('order_id is 24 bytes (the venue length) whose first 8 carry the wide id', () => {
    const id = orderIdHex(24691n);
    expect(id).toMatch(/^0x[0-9a-f]{48}$/);
    expect(id.slice(0, 18)).toBe('0x0000000000006073');
    expect(wideFromOrderId(id)).toBe(24691n);
    expect(wideFromOrderId(id.slice(2))).toBe(24691n);
    expect(orderIdHex(24691n)).toBe(id);
    expect(orderIdHex(24690n).slice(18)).not.toBe(id.slice(18));
    expect(wideFromOrderId('0x1234')).toBeUndefined();
  });

  it("the last 16 bytes are splitmix64's first two outputs seeded by the wide id (the reference vectors for seed 0)", () => {
    expect(orderIdHex(0n)).toBe('0x0000000000000000e220a8397b1dcdaf6e789e6aa1b965f4');
    // Past 2^64 - 1 the state wraps, as the reference's uint64 arithmetic does.
    expect(orderIdHex((1n << 64n) - 1n)).toBe('0xffffffffffffffffe4d971771b652c20e99ff867dbf682c9');
  });

  it('placed orders carry consistent ids and are found by order_id (any case) and by resting id', () => {
    const ex = quietExchange();
    const buy = ex.placeOrder(ALICE, limit(0, 640_000, 20), T0).order;
    const sell = ex.placeOrder(ALICE, limit(1, 660_000, 20), T0).order;
    for (const order of [buy, sell]) {
      const wide = BigInt(order.wide_order_id);
      expect(BigInt(order.resting_order_id)).toBe(wide >> 1n);
      expect(Number(wide & 1n)).toBe(order.side);
      expect(wideFromOrderId(order.order_id)).toBe(wide);
      expect(ex.order(order.order_id.toUpperCase().replace('0X', '0x'))).toEqual(order);
      expect(ex.orderByRestingId(BigInt(order.resting_order_id))).toEqual(order);
    }
    expect(BigInt(sell.resting_order_id)).toBe(BigInt(buy.resting_order_id) + 1n);
    // A well-formed id whose tail does not match is not an order.
    expect(ex.order(`${buy.order_id.slice(0, 18)}${'0'.repeat(48)}`)).toBeUndefined();
  });

  it('forgets terminal orders beyond the retention window but keeps open ones', () => {
    const ex = quietExchange({ terminalOrderRetention: 2 });
    const open = ex.placeOrder(ALICE, limit(0, 600_000, 20), T0).order;
    const done = [1, 2, 3].map(() => ex.placeOrder(ALICE, limit(1, 700_000, 20, { time_in_force: 3 }), T0).order);
    expect(done.every((o) => o.status === 'ORDER_STATUS_CANCELLED')).toBe(true);
    expect(ex.order(done[0]?.order_id ?? '')).toBeUndefined();
    expect(ex.order(done[2]?.order_id ?? '')?.status).toBe('ORDER_STATUS_CANCELLED');
    expect(ex.order(open.order_id)?.status).toBe('ORDER_STATUS_OPEN');
    expect(ex.orderCounts).toEqual({ known: 3, open: 1 });
  });
});

import { describe, expect, it } from 'vitest';
import {
  isResting,
  isTerminal,
  largerFilledSize,
  restingIdFromOrderId,
  stateOfRecord,
  trackedOrder,
} from '../../../src/engine/orders/trackedOrder.js';

describe('trackedOrder', () => {
  it('reads the state of a venue order record, a partial fill staying OPEN on the venue', () => {
    expect(stateOfRecord('ORDER_STATUS_OPEN', '0')).toBe('open');
    expect(stateOfRecord('ORDER_STATUS_OPEN', '0.001')).toBe('partially_filled');
    expect(stateOfRecord('ORDER_STATUS_FILLED', '1')).toBe('filled');
    expect(stateOfRecord('ORDER_STATUS_CANCELLED', '0')).toBe('cancelled');
    expect(stateOfRecord('ORDER_STATUS_NONE', '0')).toBe('unknown');
  });

  it('tells resting from final states', () => {
    expect(['open', 'partially_filled'].every((s) => isResting(s as 'open'))).toBe(true);
    expect(isResting('submitted') || isResting('unknown') || isResting('filled')).toBe(false);
    expect(['filled', 'cancelled', 'refused', 'failed'].every((s) => isTerminal(s as 'filled'))).toBe(true);
    expect(isTerminal('unknown') || isTerminal('open')).toBe(false);
  });

  it('takes the larger filled size, compared as numbers', () => {
    expect(largerFilledSize('0.5', '0.25')).toBe('0.5');
    expect(largerFilledSize('0.5', '10')).toBe('10');
  });

  it('derives the resting id from the first 8 bytes of a venue order id', () => {
    expect(restingIdFromOrderId(`0x${'0000000000000010'}${'ab'.repeat(24)}`)).toBe(8n);
    expect(restingIdFromOrderId('0x1234')).toBeUndefined();
  });

  it('copies an order with a new state, keeping its ids unless new ones are given', () => {
    const base = { intentId: 'i', strategy: 's', marketId: 1, side: 'buy' as const, size: '1', price: '10' };
    const open = trackedOrder({ ...base, clientOrderId: 3n }, 'open', '0', '0xab', 5n);
    expect(trackedOrder(open, 'filled', '1')).toEqual({
      ...base,
      clientOrderId: 3n,
      orderId: '0xab',
      restingOrderId: 5n,
      state: 'filled',
      filledSize: '1',
    });
  });
});

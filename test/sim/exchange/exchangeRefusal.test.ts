import { describe, expect, it } from 'vitest';
import {
  ExchangeRefusal,
  formatErrorText,
  isExchangeRefusal,
  revertReason,
  reverted,
} from '../../../src/sim/exchange/exchangeRefusal.js';
import { parseVenueErrorText } from '../../../src/venue/venueError.js';

describe('exchange error texts', () => {
  it.each([
    {
      text: formatErrorText('InvalidArgument', 'market orders require FOK or IOC time_in_force, got 0'),
      expected: 'InvalidArgument: market orders require FOK or IOC time_in_force, got 0',
      kind: 'MarketOrderTimeInForce',
    },
    {
      text: formatErrorText('FailedPrecondition', revertReason('UpdateMarginMode', 'OpenPositionExists', [1500n])),
      expected: 'FailedPrecondition: UpdateMarginMode reverted: OpenPositionExists(1500)',
      kind: 'OpenPositionExists',
    },
    {
      text: formatErrorText('FailedPrecondition', revertReason('PlaceOrder', 'InsufficientMargin', [2n, 1n])),
      expected: 'FailedPrecondition: PlaceOrder reverted: InsufficientMargin(2,1)',
      kind: 'Unknown',
    },
  ])('$expected', ({ text, expected, kind }) => {
    expect(text).toBe(expected);
    expect(parseVenueErrorText(text).kind).toBe(kind);
  });

  it('the thrown refusal carries status, reason, full text and hints', () => {
    const error = reverted('CancelOrder', 'OrderNotFound', [9n], 'read the open orders');
    expect(error).toBeInstanceOf(ExchangeRefusal);
    expect(isExchangeRefusal(error)).toBe(true);
    expect(error).toMatchObject({
      status: 'FailedPrecondition',
      reason: 'CancelOrder reverted: OrderNotFound(9)',
      text: 'FailedPrecondition: CancelOrder reverted: OrderNotFound(9)',
      message: 'FailedPrecondition: CancelOrder reverted: OrderNotFound(9)',
      hints: ['read the open orders'],
      code: 'EXCHANGE_REFUSED',
    });
    expect(isExchangeRefusal(new Error('x'))).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { fires } from '../../../src/sim/tpsl/tpslTrigger.js';

/** venue-tpsl.md "Trigger rule", on the side each order closes (SELL closes a long, BUY a short). */
describe('the trigger rule', () => {
  const stop = 100n;
  it.each([
    // [side, stop type, price, fires]
    ['SELL', 'TAKE_PROFIT', 101n, true],
    ['SELL', 'TAKE_PROFIT', 100n, true],
    ['SELL', 'TAKE_PROFIT', 99n, false],
    ['SELL', 'STOP_LOSS', 99n, true],
    ['SELL', 'STOP_LOSS', 100n, true],
    ['SELL', 'STOP_LOSS', 101n, false],
    ['BUY', 'TAKE_PROFIT', 99n, true],
    ['BUY', 'TAKE_PROFIT', 100n, true],
    ['BUY', 'TAKE_PROFIT', 101n, false],
    ['BUY', 'STOP_LOSS', 101n, true],
    ['BUY', 'STOP_LOSS', 100n, true],
    ['BUY', 'STOP_LOSS', 99n, false],
  ] as const)('%s %s at %s: %s', (side, stopType, price, expected) => {
    expect(fires({ side, stopType }, stop, price)).toBe(expected);
  });
});

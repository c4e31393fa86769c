import { describe, expect, it } from 'vitest';
import { Refusal } from '../../src/engine/refusal.js';
import { slippageBound } from '../../src/engine/slippageBound.js';

function ruleOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof Refusal) return error.rejection.rule;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('slippageBound', () => {
  it.each([
    // side, mark, tick, bps, ticks, price
    ['buy', '100', '0.01', 100, 10100, '101'],
    ['sell', '100', '0.01', 100, 9900, '99'],
    ['buy', '100.07', '0.1', 10, 1001, '100.1'], // 100.17007 -> down to 100.1, still above the mark
    ['sell', '100.07', '0.1', 10, 1000, '100'], // 99.96993 -> up to 100.0, still below the mark
    ['buy', '0.5', '0.5', 9999, 1, '0.5'], // 0.99995 -> down to one tick
  ] as const)('%s at mark %s, tick %s, %i bps -> %i ticks', (side, mark, tick, bps, ticks, price) => {
    expect(slippageBound(side, mark, tick, bps)).toEqual({ ticks, price });
  });

  it('never lets the bound exceed the allowed slippage', () => {
    for (let bps = 1; bps <= 300; bps += 7) {
      const buy = slippageBound('buy', '65000.5', '0.1', bps);
      const sell = slippageBound('sell', '65000.5', '0.1', bps);
      // bound × 10^4 against mark × (10^4 ± bps), both at one decimal: integer arithmetic only.
      expect(BigInt(buy.ticks) * 10_000n <= 650005n * BigInt(10_000 + bps)).toBe(true);
      expect(BigInt(sell.ticks) * 10_000n >= 650005n * BigInt(10_000 - bps)).toBe(true);
    }
  });

  it.each([
    ['a slippage narrower than one tick (bound below the mark)', () => slippageBound('buy', '100.05', '0.1', 1), 'slippage'],
    ['a sell bound above the mark', () => slippageBound('sell', '100.05', '0.1', 1), 'slippage'],
    ['a buy bound of 0 ticks', () => slippageBound('buy', '0.4', '1', 10), 'slippage'],
    ['a bound beyond uint24', () => slippageBound('buy', '16777215', '1', 10), 'price_ticks_range'],
    ['no mark', () => slippageBound('buy', '', '0.1', 10), 'mark_price'],
    ['a zero mark', () => slippageBound('sell', '0', '0.1', 10), 'mark_price'],
    ['10000 bps (a sell bound of 0)', () => slippageBound('sell', '100', '0.1', 10_000), 'slippage'],
    ['fractional bps', () => slippageBound('buy', '100', '0.1', 1.5), 'slippage'],
  ])('refuses %s', (_name, run, rule) => {
    expect(ruleOf(run)).toBe(rule);
  });
});

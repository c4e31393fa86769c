import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ThrownRefusal } from '../../../src/engine/intents/refusal.js';
import { slippageBound } from '../../../src/engine/checks/slippageBound.js';
import { parseDecimal } from '../../../src/core/decimal.js';

/** A market's tick as the checks hold it (`marketRules`): parsed once, with its text. */
function tickOf(text: string): { tick: ReturnType<typeof parseDecimal>; tickText: string } {
  return { tick: parseDecimal(text, 'tick'), tickText: text };
}

function ruleOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof ThrownRefusal) return error.refusal.rule;
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
    expect(slippageBound(side, mark, tickOf(tick), bps)).toEqual({ ticks, price });
  });

  it('never lets the bound exceed the allowed slippage', () => {
    for (let bps = 1; bps <= 300; bps += 7) {
      const buy = slippageBound('buy', '65000.5', tickOf('0.1'), bps);
      const sell = slippageBound('sell', '65000.5', tickOf('0.1'), bps);
      // bound × 10^4 against mark × (10^4 ± bps), both at one decimal: integer arithmetic only.
      expect(BigInt(buy.ticks) * 10_000n <= 650005n * BigInt(10_000 + bps)).toBe(true);
      expect(BigInt(sell.ticks) * 10_000n >= 650005n * BigInt(10_000 - bps)).toBe(true);
    }
  });

  it.each([
    [
      'a slippage narrower than one tick (bound below the mark)',
      () => slippageBound('buy', '100.05', tickOf('0.1'), 1),
      'slippage',
    ],
    ['a sell bound above the mark', () => slippageBound('sell', '100.05', tickOf('0.1'), 1), 'slippage'],
    ['a buy bound of 0 ticks', () => slippageBound('buy', '0.4', tickOf('1'), 10), 'slippage'],
    ['a bound beyond uint24', () => slippageBound('buy', '16777215', tickOf('1'), 10), 'price_ticks_range'],
    ['no mark', () => slippageBound('buy', '', tickOf('0.1'), 10), 'mark_price'],
    ['a zero mark', () => slippageBound('sell', '0', tickOf('0.1'), 10), 'mark_price'],
    ['10000 bps (a sell bound of 0)', () => slippageBound('sell', '100', tickOf('0.1'), 10_000), 'slippage'],
    ['fractional bps', () => slippageBound('buy', '100', tickOf('0.1'), 1.5), 'slippage'],
  ])('refuses %s', (_name, run, rule) => {
    expect(ruleOf(run)).toBe(rule);
  });
});

describe('slippageBound properties', () => {
  const decimal = (units: bigint, scale: number): string => {
    const digits = units.toString().padStart(scale + 1, '0');
    return scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  };

  it('either bounds within the slippage on the right side of the mark, or refuses', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('buy' as const, 'sell' as const),
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.integer({ min: 0, max: 8 }),
        fc.bigInt({ min: 1n, max: 1000n }),
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 1, max: 9999 }),
        (side, markUnits, markScale, tickUnits, tickScale, bps) => {
          const mark = decimal(markUnits, markScale);
          const tick = decimal(tickUnits, tickScale);
          let bound: { ticks: number; price: string };
          try {
            bound = slippageBound(side, mark, tickOf(tick), bps);
          } catch (error) {
            if (!(error instanceof ThrownRefusal)) throw error;
            expect(['slippage', 'price_ticks_range']).toContain(error.refusal.rule);
            return;
          }
          // Compare bound = ticks × tick with mark × (1 ± bps) in integers at a common scale.
          const scale = Math.max(markScale, tickScale);
          const b = BigInt(bound.ticks) * tickUnits * 10n ** BigInt(scale - tickScale) * 10_000n;
          const m = markUnits * 10n ** BigInt(scale - markScale);
          const limit = m * BigInt(side === 'buy' ? 10_000 + bps : 10_000 - bps);
          expect(bound.ticks).toBeGreaterThan(0);
          expect(bound.ticks).toBeLessThanOrEqual(16_777_215);
          if (side === 'buy') {
            expect(b <= limit).toBe(true);
            expect(b >= m * 10_000n).toBe(true);
          } else {
            expect(b >= limit).toBe(true);
            expect(b <= m * 10_000n).toBe(true);
          }
        },
      ),
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fixedText } from '../../../src/engine/checks/fixedPoint.js';
import { marketRules } from '../../../src/engine/checks/marketRules.js';
import type { MarketView } from '../../../src/engine/checks/marketView.js';
import { snapPrice, snapSize } from '../../../src/engine/checks/orderGrid.js';
import { ThrownRefusal } from '../../../src/engine/intents/refusal.js';

const market: MarketView = {
  market_id: '1',
  mark_price: '100',
  config: { step_size: '0.001', step_price: '0.5', min_order_size: '0.002' },
};
const rules = marketRules(market);

function rule(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof ThrownRefusal) return error.refusal.rule;
    throw error;
  }
  return 'none';
}

describe('order grid (snapSize, snapPrice)', () => {
  it.each([
    ['0.002', undefined, 2, '0.002'],
    ['0.0020', undefined, 2, '0.002'],
    ['0.0025', 'down', 2, '0.002'],
    ['0.0025', 'up', 3, '0.003'],
    ['0.0025', 'nearest', 3, '0.003'],
    ['4294967.295', undefined, 4_294_967_295, '4294967.295'],
  ] as const)('size %s (rounding %s) -> %i steps', (size, rounding, units, snapped) => {
    const { value, ...shown } = snapSize(size, rules, rounding);
    expect(shown).toEqual({ units, snapped });
    // The exact value is the snapped text at the step's scale.
    expect(value.scale).toBe(3);
    expect(fixedText(value)).toBe(snapped);
  });

  it.each([
    ['100', undefined, 200, '100'],
    ['100.25', 'down', 200, '100'],
    ['100.25', 'up', 201, '100.5'],
    ['8388607.5', undefined, 16_777_215, '8388607.5'],
  ] as const)('price %s (rounding %s) -> %i ticks', (price, rounding, units, snapped) => {
    const { value, ...shown } = snapPrice(price, rules, rounding);
    expect(shown).toEqual({ units, snapped });
    expect(value).toEqual({ units: BigInt(units) * 5n, scale: 1 });
  });

  it.each([
    ['off-grid size', () => snapSize('0.0025', rules), 'size_step'],
    [
      'size rounded below the minimum',
      () =>
        snapSize('0.0025', marketRules({ ...market, config: { ...market.config, min_order_size: '0.003' } }), 'down'),
      'min_order_size',
    ],
    ['size one step past uint32', () => snapSize('4294967.296', rules), 'size_steps_range'],
    ['a number instead of a string', () => snapSize(0.002, rules), 'size'],
    ['off-grid price', () => snapPrice('100.25', rules), 'price_tick'],
    ['price one tick past uint24', () => snapPrice('8388608', rules), 'price_ticks_range'],
    ['negative price', () => snapPrice('-1', rules), 'price'],
    ['price rounding down to 0 ticks', () => snapPrice('0.25', rules, 'down'), 'price'],
  ])('refuses %s', (_name, run, expected) => {
    expect(rule(run)).toBe(expected);
  });
});

describe('order grid properties', () => {
  it('snaps exactly: on-grid sizes round-trip, rounded sizes move less than one step in the named direction', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 2_000n, max: 4_294_967_295_000n }),
        fc.constantFrom('down' as const, 'up' as const, 'nearest' as const),
        (micro, rounding) => {
          // micro = size in 10^-6, the market step is 10^-3
          const size = `${micro / 1_000_000n}.${(micro % 1_000_000n).toString().padStart(6, '0')}`;
          let snapped: { units: number; snapped: string };
          try {
            snapped = snapSize(size, rules, rounding);
          } catch (error) {
            if (!(error instanceof ThrownRefusal)) throw error;
            expect(['size_steps_range', 'min_order_size']).toContain(error.refusal.rule);
            return;
          }
          const back = BigInt(snapped.units) * 1_000n; // in 10^-6
          const diff = back - micro;
          expect(diff < 1_000n && diff > -1_000n).toBe(true);
          if (rounding === 'down') expect(diff <= 0n).toBe(true);
          if (rounding === 'up') expect(diff >= 0n).toBe(true);
          if (micro % 1_000n === 0n) expect(snapSize(size, rules).units).toBe(snapped.units);
          else expect(rule(() => snapSize(size, rules))).toBe('size_step');
        },
      ),
    );
  });
});

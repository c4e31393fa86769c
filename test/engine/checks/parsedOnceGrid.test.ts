import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compareDecimals,
  countUnits,
  fixedToDecimal,
  isDecimalString,
  multiplyDecimals,
  multiplyUnits,
  type Rounding,
} from '../../../src/core/decimal.js';
import { InvalidValueError } from '../../../src/core/invalidValueError.js';
import { fixedText } from '../../../src/engine/checks/fixedPoint.js';
import { marketRules } from '../../../src/engine/checks/marketRules.js';
import type { MarketView } from '../../../src/engine/checks/marketView.js';
import { snapPrice, snapSize } from '../../../src/engine/checks/orderGrid.js';
import { slippageBound } from '../../../src/engine/checks/slippageBound.js';
import { ThrownRefusal } from '../../../src/engine/intents/refusal.js';

/**
 * The market's rules parsed once into fixed-point values, and the intent's decimals parsed once,
 * against the string path they replaced: every step re-parses its decimal strings with the helpers
 * of core/decimal (countUnits, multiplyUnits, compareDecimals). Same numbers, same refusals.
 */

type Answer = { units: number; snapped: string } | { rule: string; value: string };

const UINT32_MAX = 4_294_967_295n;
const UINT24_MAX = 16_777_215n;

/** The string path: a grid value by re-parsing the texts at every step. */
function stringSnap(
  text: string,
  unit: string,
  min: string | undefined,
  rounding: Rounding | undefined,
  names: { value: 'size' | 'price'; grid: 'size_step' | 'price_tick'; range: 'size_steps_range' | 'price_ticks_range' },
): Answer {
  if (!isDecimalString(text) || compareDecimals(text, '0') <= 0) return { rule: names.value, value: text };
  let units: bigint;
  try {
    units = countUnits(text, unit, names.value, rounding);
  } catch (error) {
    if (!(error instanceof InvalidValueError)) throw error;
    return { rule: names.grid, value: text };
  }
  if (units === 0n) return { rule: names.value, value: text };
  if (units > (names.value === 'size' ? UINT32_MAX : UINT24_MAX)) return { rule: names.range, value: `${units}` };
  const snapped = multiplyUnits(units, unit);
  if (min !== undefined && compareDecimals(snapped, min) < 0) return { rule: 'min_order_size', value: snapped };
  return { units: Number(units), snapped };
}

/** The string path of a market order's bound: mark × (1 ± bps) in whole ticks, toward the mark. */
function stringBound(side: 'buy' | 'sell', mark: string, tick: string, bps: number): Answer {
  const factor = fixedToDecimal(BigInt(side === 'buy' ? 10_000 + bps : 10_000 - bps), 4);
  const ticks = countUnits(multiplyDecimals(mark, factor), tick, 'bound', side === 'buy' ? 'down' : 'up');
  if (ticks <= 0n) return { rule: 'slippage', value: `${ticks}` };
  if (ticks > UINT24_MAX) return { rule: 'price_ticks_range', value: `${ticks}` };
  const price = multiplyUnits(ticks, tick);
  const cmp = compareDecimals(price, mark);
  if (side === 'buy' ? cmp < 0 : cmp > 0) return { rule: 'slippage', value: `${bps}` };
  return { units: Number(ticks), snapped: price };
}

/** The parsed-once path's answer in the same shape. */
function answer(run: () => { units?: number; ticks?: number; snapped?: string; price?: string }): Answer {
  try {
    const r = run();
    return { units: r.units ?? r.ticks ?? Number.NaN, snapped: r.snapped ?? r.price ?? '' };
  } catch (error) {
    if (!(error instanceof ThrownRefusal)) throw error;
    return { rule: error.refusal.rule, value: error.refusal.value };
  }
}

/** Decimal text of units / 10^scale, sometimes with trailing zeros ("1.50") as strategies write them. */
const decimal = (units: bigint, scale: number, pad: number): string => {
  const digits = units.toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return pad === 0 ? text : `${scale === 0 ? `${text}.` : text}${'0'.repeat(pad)}`;
};
const decimalArb = (max: bigint, maxScale: number) =>
  fc
    .tuple(fc.bigInt({ min: 0n, max }), fc.integer({ min: 0, max: maxScale }), fc.integer({ min: 0, max: 2 }))
    .map(([units, scale, pad]) => decimal(units, scale, pad));
const positiveArb = (max: bigint, maxScale: number) =>
  fc
    .tuple(fc.bigInt({ min: 1n, max }), fc.integer({ min: 0, max: maxScale }))
    .map(([units, scale]) => decimal(units, scale, 0));
const roundingArb = fc.constantFrom<Rounding | undefined>(undefined, 'down', 'up', 'nearest');
const textArb = fc.oneof(
  { weight: 8, arbitrary: decimalArb(10n ** 12n, 9) },
  { weight: 1, arbitrary: fc.constantFrom('', '-1', '1e-3', ' 1', '.5', '1.', 'abc') },
);

function marketOf(step: string, tick: string, min: string): MarketView {
  return { market_id: '1', mark_price: '1', config: { step_size: step, step_price: tick, min_order_size: min } };
}

describe('the parsed-once grid agrees with the string path', () => {
  it('snaps sizes to the same steps, or refuses them by the same rule and value', () => {
    fc.assert(
      fc.property(positiveArb(1000n, 8), decimalArb(10_000n, 8), textArb, roundingArb, (step, min, size, rounding) => {
        const rules = marketRules(marketOf(step, '1', min));
        const names = { value: 'size', grid: 'size_step', range: 'size_steps_range' } as const;
        expect(answer(() => snapSize(size, rules, rounding))).toEqual(stringSnap(size, step, min, rounding, names));
      }),
      { numRuns: 2_000 },
    );
  });

  it('snaps prices to the same ticks, or refuses them by the same rule and value', () => {
    fc.assert(
      fc.property(positiveArb(1000n, 6), textArb, roundingArb, (tick, price, rounding) => {
        const rules = marketRules(marketOf('1', tick, '0'));
        const names = { value: 'price', grid: 'price_tick', range: 'price_ticks_range' } as const;
        expect(answer(() => snapPrice(price, rules, rounding))).toEqual(
          stringSnap(price, tick, undefined, rounding, names),
        );
      }),
      { numRuns: 2_000 },
    );
  });

  it('keeps the exact value equal to the snapped text', () => {
    fc.assert(
      fc.property(positiveArb(1000n, 8), positiveArb(10n ** 10n, 9), roundingArb, (step, size, rounding) => {
        let value;
        try {
          value = snapSize(size, marketRules(marketOf(step, '1', '0')), rounding ?? 'down');
        } catch (error) {
          if (error instanceof ThrownRefusal) return;
          throw error;
        }
        expect(fixedText(value.value)).toBe(value.snapped);
      }),
    );
  });

  it('derives the same slippage bound of a market order from the mark', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('buy' as const, 'sell' as const),
        positiveArb(10n ** 12n, 8),
        positiveArb(1000n, 6),
        fc.integer({ min: 1, max: 9_999 }),
        (side, mark, tick, bps) => {
          const rules = marketRules(marketOf('1', tick, '0'));
          expect(answer(() => slippageBound(side, mark, rules, bps))).toEqual(stringBound(side, mark, tick, bps));
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

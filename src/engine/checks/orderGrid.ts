import { decimalOrUndefined, divideRounded, type FixedPoint, type Rounding } from '../../core/decimal.js';
import { MAX_PRICE_TICKS, MAX_SIZE_STEPS } from '../../protocol/orderQuantities.js';
import { compareFixed, fixedText, unitsAt } from './fixedPoint.js';
import type { MarketRules } from './marketRules.js';
import { refuse } from '../intents/refusal.js';

/**
 * Decimal size and price to whole steps and ticks of a market, exactly, as refusals that name the
 * rule (the protocol's `sizeToSteps`/`priceToTicks` throw instead and know no minimum size). A
 * value off the grid is refused unless the intent named a rounding mode; the snapped value is
 * returned alongside, as text and exact, so guards and logs see the value that will really be
 * sent without parsing it again. The intent's text is parsed once, the market's rules not at all.
 */

const UINT32_MAX = MAX_SIZE_STEPS;
const UINT24_MAX = MAX_PRICE_TICKS;

export interface GridValue {
  readonly units: number;
  /** units × step, exact. */
  readonly snapped: string;
  /** The same value, at the step's (or tick's) scale. */
  readonly value: FixedPoint;
}

export function snapSize(size: unknown, rules: MarketRules, rounding?: Rounding): GridValue {
  const value = decimalOrUndefined(size);
  if (value === undefined) refuse('size', size, 'size must be a decimal string such as "0.01"');
  if (value.units <= 0n) refuse('size', size, 'size must be greater than 0');
  const text = size as string; // it parsed, so it is a string
  const steps = onGrid(text, value, rules.stepText, rules.step, rounding, 'size_step', 'step_size', 'sizeRounding');
  if (steps === 0n) refuse('size', text, `size rounds ${rounding ?? 'down'} to 0 steps of ${rules.stepText}`);
  if (steps > UINT32_MAX) refuse('size_steps_range', steps, `size_steps must fit uint32 (at most ${UINT32_MAX})`);
  const snapped: FixedPoint = { units: steps * rules.step.units, scale: rules.step.scale };
  if (compareFixed(snapped, rules.minSize) < 0) {
    refuse('min_order_size', fixedText(snapped), `size is below the market's min_order_size ${rules.minSizeText}`);
  }
  return { units: Number(steps), snapped: fixedText(snapped), value: snapped };
}

export function snapPrice(price: unknown, rules: MarketRules, rounding?: Rounding): GridValue {
  const value = decimalOrUndefined(price);
  if (value === undefined) refuse('price', price, 'price must be a decimal string such as "65000.5"');
  if (value.units <= 0n) refuse('price', price, 'price must be greater than 0');
  const text = price as string; // it parsed, so it is a string
  const tick = rules.tickText;
  const ticks = onGrid(text, value, tick, rules.tick, rounding, 'price_tick', 'step_price', 'priceRounding');
  if (ticks === 0n) refuse('price', text, `price rounds ${rounding ?? 'down'} to 0 ticks of ${tick}`);
  if (ticks > UINT24_MAX) refuse('price_ticks_range', ticks, `price_ticks must fit uint24 (at most ${UINT24_MAX})`);
  const snapped: FixedPoint = { units: ticks * rules.tick.units, scale: rules.tick.scale };
  return { units: Number(ticks), snapped: fixedText(snapped), value: snapped };
}

/** Whole units of `unit` in a positive value: exact, or rounded only in the mode the intent named. */
function onGrid(
  text: string,
  value: FixedPoint,
  unitText: string,
  unit: FixedPoint,
  rounding: Rounding | undefined,
  rule: 'size_step' | 'price_tick',
  unitName: string,
  roundingField: string,
): bigint {
  const scale = Math.max(value.scale, unit.scale);
  const n = unitsAt(value, scale);
  const d = unitsAt(unit, scale);
  if (rounding === undefined) {
    if (n % d !== 0n) {
      refuse(
        rule,
        text,
        `not a whole multiple of the market's ${unitName} ${unitText}`,
        `round it yourself or set ${roundingField} (down, up, nearest)`,
      );
    }
    return n / d;
  }
  return divideRounded(n, d, rounding);
}

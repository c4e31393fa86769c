import { divideRounded, isDecimalString, type FixedPoint, type Rounding } from '../../core/decimal.js';
import { parsedDecimal } from './parsedDecimal.js';
import { MAX_PRICE_TICKS, MAX_SIZE_STEPS } from '../../protocol/orderQuantities.js';
import { compareFixed, fixedText, unitsAt } from './fixedPoint.js';
import { marketGrid } from './marketGrid.js';
import type { MarketView } from './marketView.js';
import { refuse } from '../intents/refusal.js';

/**
 * Decimal size and price to whole steps and ticks of a market, exactly, as refusals that name the
 * rule (the protocol's `sizeToSteps`/`priceToTicks` throw instead and know no minimum size). A
 * value off the grid is refused unless the intent named a rounding mode; the snapped decimal is
 * returned alongside so guards and logs see the value that will really be sent.
 */

const UINT32_MAX = MAX_SIZE_STEPS;
const UINT24_MAX = MAX_PRICE_TICKS;

export interface GridValue {
  readonly units: number;
  /** units × step, exact. */
  readonly snapped: string;
}

export function snapSize(size: unknown, market: MarketView, rounding?: Rounding): GridValue {
  if (!isDecimalString(size)) refuse('size', size, 'size must be a decimal string such as "0.01"');
  const value = parsedDecimal(size, 'size');
  if (value.units <= 0n) refuse('size', size, 'size must be greater than 0');
  const grid = marketGrid(market);
  const step = market.config.step_size;
  const steps = onGrid(size, value, step, grid.step, rounding, 'size_step', 'step_size', 'sizeRounding');
  if (steps === 0n) refuse('size', size, `size rounds ${rounding ?? 'down'} to 0 steps of ${step}`);
  if (steps > UINT32_MAX) refuse('size_steps_range', steps, `size_steps must fit uint32 (at most ${UINT32_MAX})`);
  const snapped: FixedPoint = { units: steps * grid.step.units, scale: grid.step.scale };
  if (compareFixed(snapped, grid.minSize) < 0) {
    refuse(
      'min_order_size',
      fixedText(snapped),
      `size is below the market's min_order_size ${market.config.min_order_size}`,
    );
  }
  return { units: Number(steps), snapped: fixedText(snapped) };
}

export function snapPrice(price: unknown, market: MarketView, rounding?: Rounding): GridValue {
  if (!isDecimalString(price)) refuse('price', price, 'price must be a decimal string such as "65000.5"');
  const value = parsedDecimal(price, 'price');
  if (value.units <= 0n) refuse('price', price, 'price must be greater than 0');
  const grid = marketGrid(market);
  const tick = market.config.step_price;
  const ticks = onGrid(price, value, tick, grid.tick, rounding, 'price_tick', 'step_price', 'priceRounding');
  if (ticks === 0n) refuse('price', price, `price rounds ${rounding ?? 'down'} to 0 ticks of ${tick}`);
  if (ticks > UINT24_MAX) refuse('price_ticks_range', ticks, `price_ticks must fit uint24 (at most ${UINT24_MAX})`);
  return { units: Number(ticks), snapped: fixedText({ units: ticks * grid.tick.units, scale: grid.tick.scale }) };
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

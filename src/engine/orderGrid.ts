import {
  compareDecimals,
  countUnits,
  isDecimalString,
  multiplyUnits,
  type Rounding,
} from '../core/decimal.js';
import { MAX_PRICE_TICKS, MAX_SIZE_STEPS } from '../protocol/orderQuantities.js';
import type { MarketView } from './marketView.js';
import { refuse } from './refusal.js';

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
  const step = market.config.step_size;
  if (!isDecimalString(size)) refuse('size', size, 'size must be a decimal string such as "0.01"');
  if (compareDecimals(size, '0') <= 0) refuse('size', size, 'size must be greater than 0');
  const steps = onGrid(size, step, rounding, 'size_step', 'step_size', 'sizeRounding');
  if (steps === 0n) refuse('size', size, `size rounds ${rounding ?? 'down'} to 0 steps of ${step}`);
  if (steps > UINT32_MAX) refuse('size_steps_range', steps, `size_steps must fit uint32 (at most ${UINT32_MAX})`);
  const snapped = multiplyUnits(steps, step);
  if (compareDecimals(snapped, market.config.min_order_size) < 0) {
    refuse('min_order_size', snapped, `size is below the market's min_order_size ${market.config.min_order_size}`);
  }
  return { units: Number(steps), snapped };
}

export function snapPrice(price: unknown, market: MarketView, rounding?: Rounding): GridValue {
  const tick = market.config.step_price;
  if (!isDecimalString(price)) refuse('price', price, 'price must be a decimal string such as "65000.5"');
  if (compareDecimals(price, '0') <= 0) refuse('price', price, 'price must be greater than 0');
  const ticks = onGrid(price, tick, rounding, 'price_tick', 'step_price', 'priceRounding');
  if (ticks === 0n) refuse('price', price, `price rounds ${rounding ?? 'down'} to 0 ticks of ${tick}`);
  if (ticks > UINT24_MAX) refuse('price_ticks_range', ticks, `price_ticks must fit uint24 (at most ${UINT24_MAX})`);
  return { units: Number(ticks), snapped: multiplyUnits(ticks, tick) };
}

function onGrid(
  value: string,
  unit: string,
  rounding: Rounding | undefined,
  rule: 'size_step' | 'price_tick',
  unitName: string,
  roundingField: string,
): bigint {
  if (rounding === undefined) {
    const count = countUnits(value, unit, rule, 'down');
    if (multiplyUnits(count, unit) !== normalize(value)) {
      refuse(rule, value, `not a whole multiple of the market's ${unitName} ${unit}`, `round it yourself or set ${roundingField} (down, up, nearest)`);
    }
    return count;
  }
  return countUnits(value, unit, rule, rounding);
}

function normalize(value: string): string {
  return multiplyUnits(1n, value);
}

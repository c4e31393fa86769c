import {
  compareDecimals,
  divideRounded,
  isDecimalString,
  multiplyUnits,
  parseDecimal,
  pow10,
} from '../../core/decimal.js';
import { uintMax } from '../../core/integerRange.js';
import type { Side } from '../intents/intents.js';
import { refuse } from '../intents/refusal.js';

/**
 * The price_ticks of a market order: the worst price it may trade at, derived from the mark and a
 * maximum slippage in basis points. The rounding direction keeps the bound inside the allowed
 * slippage: a buy bound mark × (1 + bps) rounds DOWN to the tick, a sell bound mark × (1 − bps)
 * rounds UP. When one tick is wider than the allowed slippage the bound would land on the wrong
 * side of the mark (the order could never fill as intended), so that is refused, as is a bound of
 * 0 ticks, which some clients send and the spec does not allow.
 */

const UINT24_MAX = uintMax(24);
const BPS = 10_000n;

export interface SlippageBound {
  readonly ticks: number;
  /** ticks × step_price, exact. */
  readonly price: string;
}

export function slippageBound(
  side: Side,
  markPrice: unknown,
  stepPrice: string,
  maxSlippageBps: number,
): SlippageBound {
  if (!isDecimalString(markPrice) || compareDecimals(markPrice, '0') <= 0) {
    refuse(
      'mark_price',
      markPrice,
      'a market order needs a positive mark price to derive its slippage bound',
      'wait for the next mark price',
    );
  }
  if (!Number.isSafeInteger(maxSlippageBps) || maxSlippageBps < 1 || maxSlippageBps > 9_999) {
    refuse('slippage', maxSlippageBps, 'max slippage must be a whole number of basis points from 1 to 9999');
  }
  const mark = parseDecimal(markPrice, 'mark_price');
  const tick = parseDecimal(stepPrice, 'step_price');
  const factor = side === 'buy' ? BPS + BigInt(maxSlippageBps) : BPS - BigInt(maxSlippageBps);
  // bound / tick = (m / 10^a) × factor / 10^4 / (s / 10^c)
  const numerator = mark.units * factor * pow10(tick.scale);
  const denominator = pow10(mark.scale) * BPS * tick.units;
  const ticks = divideRounded(numerator, denominator, side === 'buy' ? 'down' : 'up');
  if (ticks <= 0n) refuse('slippage', ticks, `the ${side} slippage bound rounds to 0 ticks of ${stepPrice}`);
  if (ticks > UINT24_MAX)
    refuse('price_ticks_range', ticks, `the slippage bound must fit uint24 (at most ${UINT24_MAX} ticks)`);
  const price = multiplyUnits(ticks, stepPrice);
  const wrongSide = side === 'buy' ? compareDecimals(price, markPrice) < 0 : compareDecimals(price, markPrice) > 0;
  if (wrongSide) {
    refuse(
      'slippage',
      maxSlippageBps,
      `${maxSlippageBps} bps of the mark ${markPrice} is less than one tick (${stepPrice}); the bound ${price} is on the wrong side of the mark`,
      'allow more slippage for this market',
    );
  }
  return { ticks: Number(ticks), price };
}

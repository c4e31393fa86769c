import { decimalOrUndefined, divideRounded, type FixedPoint, pow10 } from '../../core/decimal.js';
import { uintMax } from '../../core/integerRange.js';
import type { Side } from '../intents/intents.js';
import { refuse } from '../intents/refusal.js';
import { compareFixed, fixedText } from './fixedPoint.js';
import type { MarketRules } from './marketRules.js';

/**
 * The price_ticks of a market order: the worst price it may trade at, derived from the mark and a
 * maximum slippage in basis points. The rounding direction keeps the bound inside the allowed
 * slippage: a buy bound mark × (1 + bps) rounds DOWN to the tick, a sell bound mark × (1 − bps)
 * rounds UP. When one tick is wider than the allowed slippage the bound would land on the wrong
 * side of the mark (the order could never fill as intended), so that is refused, as is a bound of
 * 0 ticks, which some clients send and the spec does not allow. The tick comes parsed with the
 * market's rules; the mark is parsed once here.
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
  rules: Pick<MarketRules, 'tick' | 'tickText'>,
  maxSlippageBps: number,
): SlippageBound {
  const mark = decimalOrUndefined(markPrice);
  if (mark === undefined || mark.units <= 0n) {
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
  const { tick, tickText } = rules;
  const ticks = boundTicks(side, mark, tick, maxSlippageBps);
  if (ticks <= 0n) refuse('slippage', ticks, `the ${side} slippage bound rounds to 0 ticks of ${tickText}`);
  if (ticks > UINT24_MAX)
    refuse('price_ticks_range', ticks, `the slippage bound must fit uint24 (at most ${UINT24_MAX} ticks)`);
  const bound: FixedPoint = { units: ticks * tick.units, scale: tick.scale };
  const price = fixedText(bound);
  const wrongSide = side === 'buy' ? compareFixed(bound, mark) < 0 : compareFixed(bound, mark) > 0;
  if (wrongSide) {
    refuse(
      'slippage',
      maxSlippageBps,
      `${maxSlippageBps} bps of the mark ${markPrice as string} is less than one tick (${tickText}); the bound ${price} is on the wrong side of the mark`,
      'allow more slippage for this market',
    );
  }
  return { ticks: Number(ticks), price };
}

/** mark × (1 ± bps) in whole ticks, rounded toward the mark. */
function boundTicks(side: Side, mark: FixedPoint, tick: FixedPoint, maxSlippageBps: number): bigint {
  const factor = side === 'buy' ? BPS + BigInt(maxSlippageBps) : BPS - BigInt(maxSlippageBps);
  // bound / tick = (m / 10^a) × factor / 10^4 / (s / 10^c)
  const numerator = mark.units * factor * pow10(tick.scale);
  const denominator = pow10(mark.scale) * BPS * tick.units;
  return divideRounded(numerator, denominator, side === 'buy' ? 'down' : 'up');
}

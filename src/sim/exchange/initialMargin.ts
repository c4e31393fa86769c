import { divideRounded } from '../../core/decimal.js';
import { notionalAtPriceWei, type MarketSpec } from './markets.js';

/** An order's claim on margin: only what is still open, and never a reduce-only order. */
export interface MarginOrder {
  readonly side: 0 | 1;
  readonly sizeSteps: number;
  readonly filledSteps: number;
  readonly priceTicks: number;
  readonly reduceOnly: boolean;
}

/**
 * Initial margin of one market, USD wei: the worse of the two sides' exposure if every open
 * order on that side filled, divided by leverage and rounded up. The position is valued at the
 * mark; an order at max(mark, its limit price), since it may fill at its limit. Orders that only
 * offset the position cost nothing, so closing never needs margin it does not already have.
 */
export function marketInitialMarginWei(
  market: MarketSpec,
  sizeSteps: bigint,
  markWei: bigint,
  orders: Iterable<MarginOrder>,
  leverage: number,
  extra?: MarginOrder,
): bigint {
  let buys = 0n;
  let sells = 0n;
  const add = (order: MarginOrder): void => {
    const remaining = order.sizeSteps - order.filledSteps;
    if (order.reduceOnly || remaining <= 0) return;
    const limitWei = BigInt(order.priceTicks) * market.tickWei;
    const notional = notionalAtPriceWei(market, limitWei > markWei ? limitWei : markWei, BigInt(remaining));
    if (order.side === 0) buys += notional;
    else sells += notional;
  };
  for (const order of orders) add(order);
  if (extra !== undefined) add(extra);
  const position = notionalAtPriceWei(market, markWei, sizeSteps);
  const long = position + buys > 0n ? position + buys : 0n;
  const short = sells - position > 0n ? sells - position : 0n;
  const exposure = long > short ? long : short;
  return divideRounded(exposure, BigInt(leverage), 'up');
}

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

/** USD wei of open orders on each side if they all filled: buys (side 0) and sells (side 1). */
export interface SideNotionals {
  readonly buys: bigint;
  readonly sells: bigint;
}

/**
 * What one order adds to its side's exposure, USD wei: its open size valued at max(mark, its
 * limit price), since it may fill at its limit; nothing for a reduce-only or finished order.
 */
export function orderMarginNotionalWei(market: MarketSpec, markWei: bigint, order: MarginOrder): bigint {
  const remaining = order.sizeSteps - order.filledSteps;
  if (order.reduceOnly || remaining <= 0) return 0n;
  const limitWei = BigInt(order.priceTicks) * market.tickWei;
  return notionalAtPriceWei(market, limitWei > markWei ? limitWei : markWei, BigInt(remaining));
}

/** The side sums of `orders` (and `extra`), each order valued on its own as above. */
export function sideNotionalsWei(
  market: MarketSpec,
  markWei: bigint,
  orders: Iterable<MarginOrder>,
  extra?: MarginOrder,
): SideNotionals {
  let buys = 0n;
  let sells = 0n;
  for (const order of orders) {
    if (order.side === 0) buys += orderMarginNotionalWei(market, markWei, order);
    else sells += orderMarginNotionalWei(market, markWei, order);
  }
  if (extra !== undefined) {
    if (extra.side === 0) buys += orderMarginNotionalWei(market, markWei, extra);
    else sells += orderMarginNotionalWei(market, markWei, extra);
  }
  return { buys, sells };
}

/**
 * Initial margin of one market from its side sums, USD wei: the worse of the two sides' exposure
 * if every open order on that side filled, divided by leverage and rounded up. The position is
 * valued at the mark. Orders that only offset the position cost nothing, so closing never needs
 * margin it does not already have.
 */
export function initialMarginFromSidesWei(
  market: MarketSpec,
  sizeSteps: bigint,
  markWei: bigint,
  sides: SideNotionals,
  leverage: number,
): bigint {
  const position = notionalAtPriceWei(market, markWei, sizeSteps);
  const long = position + sides.buys > 0n ? position + sides.buys : 0n;
  const short = sides.sells - position > 0n ? sides.sells - position : 0n;
  const exposure = long > short ? long : short;
  return divideRounded(exposure, BigInt(leverage), 'up');
}

/** Initial margin of one market, recomputed from every open order (the reference the kept sums must equal). */
export function marketInitialMarginWei(
  market: MarketSpec,
  sizeSteps: bigint,
  markWei: bigint,
  orders: Iterable<MarginOrder>,
  leverage: number,
  extra?: MarginOrder,
): bigint {
  return initialMarginFromSidesWei(
    market,
    sizeSteps,
    markWei,
    sideNotionalsWei(market, markWei, orders, extra),
    leverage,
  );
}

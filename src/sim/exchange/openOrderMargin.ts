import { orderMarginNotionalWei, sideNotionalsWei, type MarginOrder, type SideNotionals } from './initialMargin.js';
import type { MarketSpec } from './markets.js';

/**
 * The side sums of one account's open orders in one market, kept up to date as orders rest,
 * fill and leave, so a margin check costs O(1) instead of a walk over every resting order (three
 * walks per place before). The sums are valued at one mark; when the mark has moved they are
 * recomputed once from the orders (once per block at most). Every change adds or subtracts the
 * changed order's own contribution, computed exactly as the full walk computes it, so the sums
 * always equal a recomputation (held by a property test).
 */
export class OpenOrderMargin {
  /** The mark the sums are valued at; undefined until first asked (nothing to keep up before). */
  private markWei: bigint | undefined;
  private market: MarketSpec | undefined;
  private buys = 0n;
  private sells = 0n;

  /** The sums at `markWei` over `orders` (the same open orders this object has been told about). */
  at(market: MarketSpec, markWei: bigint, orders: Iterable<MarginOrder>): SideNotionals {
    if (this.markWei !== markWei || this.market !== market) {
      const sums = sideNotionalsWei(market, markWei, orders);
      this.market = market;
      this.markWei = markWei;
      this.buys = sums.buys;
      this.sells = sums.sells;
    }
    return { buys: this.buys, sells: this.sells };
  }

  /** An order joined the open orders (or, with `sign` -1, left them), in its current state. */
  adjust(order: MarginOrder, sign: 1 | -1): void {
    if (this.markWei === undefined || this.market === undefined) return;
    const notional = orderMarginNotionalWei(this.market, this.markWei, order);
    if (order.side === 0) this.buys += sign === 1 ? notional : -notional;
    else this.sells += sign === 1 ? notional : -notional;
  }
}

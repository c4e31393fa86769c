/**
 * Profit and loss in USDC over a set of fills, exact. `realized` is what closed positions made
 * (first in, first out), `unrealized` what the open remainder is worth at the mark, `fees` what
 * was paid (a rebate lowers it), `net` = realized + unrealized − fees.
 */
export interface PnlView {
  readonly realized: string;
  readonly unrealized: string;
  readonly fees: string;
  readonly net: string;
  /** Markets with an open remainder but no mark yet: their unrealized share is missing. */
  readonly unpricedMarkets: readonly number[];
}

/**
 * Profit and loss in USDC over a set of fills, as exact decimal strings at the venue's 18
 * decimals, valued by average entry (the venue's valuation, averageEntry.ts). `realisedPnl` is what
 * reduced positions made, `unrealisedPnl` what the open positions are worth at the mark, `fees`
 * what was paid (a cost: positive when paid, a rebate lowers it), and
 * `netPnl` = realisedPnl + unrealisedPnl − fees. These four names are used by every view: `ctx.pnl`,
 * `/api/status`, the dashboard, `perpbot status`, metrics (`kind`), the replay report and the docs.
 */
export interface PnlView {
  readonly realisedPnl: string;
  readonly unrealisedPnl: string;
  readonly fees: string;
  readonly netPnl: string;
  /** Markets with an open position but no mark yet: their unrealised share is missing. */
  readonly unpricedMarkets: readonly number[];
  /** @deprecated the earlier name, kept for strategies written against it: read `realisedPnl`. */
  readonly realized: string;
  /** @deprecated read `unrealisedPnl`. */
  readonly unrealized: string;
  /** @deprecated read `netPnl`. */
  readonly net: string;
}

/**
 * The view as the ledger hands it out. The old names (`realized`, `unrealized`, `net`) are getters
 * on the prototype, so strategies written against them keep working while JSON, equality checks and
 * spreads see the new names only.
 */
export class PnlFigures implements PnlView {
  constructor(
    readonly realisedPnl: string,
    readonly unrealisedPnl: string,
    readonly fees: string,
    readonly netPnl: string,
    readonly unpricedMarkets: readonly number[],
  ) {}

  get realized(): string {
    return this.realisedPnl;
  }

  get unrealized(): string {
    return this.unrealisedPnl;
  }

  get net(): string {
    return this.netPnl;
  }
}

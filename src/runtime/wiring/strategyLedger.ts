import { addDecimals, compareDecimals, multiplyDecimals, negateDecimal } from '../../core/decimal.js';
import type { PositionView } from '../../engine/tracking/accountState.js';
import type { PnlSnapshot } from '../../engine/guards/killSwitch.js';
import type { Side } from '../../engine/intents/intents.js';

export interface LedgerFill {
  readonly marketId: number;
  readonly side: Side;
  readonly price: string;
  readonly size: string;
  /** USDC paid (a rebate is negative). */
  readonly fee: string;
}

/**
 * What one strategy's own fills in this run add up to: its net position per market and its
 * mark-to-market PnL. The venue keeps one position per market for the whole account; this is the
 * share of it that this strategy traded, so its risk budget judges what it did and not what
 * another strategy in the same market did. A restart begins a new ledger, as the engine's session
 * PnL begins again.
 */
export class StrategyLedger {
  /** Signed net size per market: long positive, short negative. */
  private readonly net = new Map<number, string>();
  /** USDC the fills moved: sale proceeds minus purchase costs minus fees. */
  private cash = '0';

  onFill(fill: LedgerFill): void {
    const signedSize = fill.side === 'buy' ? fill.size : negateDecimal(fill.size, 'fill size');
    this.net.set(fill.marketId, addDecimals(this.net.get(fill.marketId) ?? '0', signedSize, 'fill size'));
    const value = multiplyDecimals(fill.size, fill.price, 'fill');
    this.cash = addDecimals(this.cash, fill.side === 'sell' ? value : negateDecimal(value), 'fill');
    this.cash = addDecimals(this.cash, negateDecimal(fill.fee, 'fill fee'), 'fill fee');
  }

  /** The strategy's net positions in the form the guards read (absolute size and a side). */
  positions(): ReadonlyMap<number, PositionView> {
    const views = new Map<number, PositionView>();
    for (const [marketId, signed] of this.net) {
      const sign = compareDecimals(signed, '0');
      if (sign !== 0)
        views.set(marketId, { side: sign > 0 ? 'buy' : 'sell', size: sign > 0 ? signed : negateDecimal(signed) });
    }
    return views;
  }

  /**
   * Mark-to-market PnL, split as the cash the fills moved (`realized`) and the net positions
   * valued at the mark (`unrealized`): only their sum means anything, and it is what the kill
   * switch judges. Undefined while a market with a position has no mark.
   */
  pnl(markOf: (marketId: number) => string | undefined): PnlSnapshot | undefined {
    let unrealized = '0';
    for (const [marketId, signed] of this.net) {
      if (compareDecimals(signed, '0') === 0) continue;
      const mark = markOf(marketId);
      if (mark === undefined) return undefined;
      unrealized = addDecimals(unrealized, multiplyDecimals(signed, mark, 'position value'));
    }
    return { realized: this.cash, unrealized };
  }
}

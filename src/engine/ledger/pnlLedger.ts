import {
  addDecimals,
  compareDecimals,
  divideRounded,
  fixedToDecimal,
  multiplyDecimals,
  negateDecimal,
  normalizeDecimal,
  parseDecimal,
  pow10,
} from '../../core/decimal.js';
import type { Side } from '../intents/intents.js';
import type { PositionView } from '../tracking/accountState.js';
import type { PnlView } from './pnlView.js';

export interface PnlFill {
  readonly marketId: number;
  readonly side: Side;
  readonly price: string;
  readonly size: string;
  /** USDC paid; a rebate is negative. */
  readonly fee: string;
}

/** An open lot: signed size (long positive) at the price it was opened at. */
interface Lot {
  size: string;
  readonly price: string;
}

/**
 * Realized and unrealized PnL and fees over a stream of fills, exact: every fill either adds a
 * lot to the open position or closes the oldest lots first (FIFO), realizing (close − open) ×
 * size for each. Unrealized is the open lots at the mark. FIFO keeps every figure an exact decimal
 * (an average entry price would need a rounded division); realized + unrealized is the same
 * either way, only the split between them can differ from the venue's average-entry figures.
 */
export class PnlLedger {
  private readonly lots = new Map<number, Lot[]>();
  private realized = '0';
  private fees = '0';

  /** Starts from a position held before the first fill (the session's opening position). */
  seed(marketId: number, side: Side, size: string, entryPrice: string): void {
    if (compareDecimals(size, '0') === 0) return;
    this.lotsOf(marketId).push({ size: side === 'buy' ? size : negateDecimal(size), price: entryPrice });
  }

  onFill(fill: PnlFill): void {
    this.fees = addDecimals(this.fees, fill.fee, 'fill fee');
    const lots = this.lotsOf(fill.marketId);
    const direction = fill.side === 'buy' ? 1 : -1;
    let left = fill.size;
    while (compareDecimals(left, '0') > 0) {
      const oldest = lots[0];
      const opposite = oldest !== undefined && compareDecimals(oldest.size, '0') * direction < 0;
      if (!opposite) {
        lots.push({ size: direction > 0 ? left : negateDecimal(left), price: fill.price });
        return;
      }
      const open = oldest.size.startsWith('-') ? oldest.size.slice(1) : oldest.size;
      const closed = compareDecimals(open, left) <= 0 ? open : left;
      // A long lot closed by a sell gains (sell − entry); a short lot closed by a buy gains (entry − buy).
      const perUnit =
        direction < 0
          ? addDecimals(fill.price, negateDecimal(oldest.price))
          : addDecimals(oldest.price, negateDecimal(fill.price));
      this.realized = addDecimals(this.realized, multiplyDecimals(closed, perUnit));
      left = addDecimals(left, negateDecimal(closed));
      const remaining = addDecimals(open, negateDecimal(closed));
      if (compareDecimals(remaining, '0') === 0) lots.shift();
      else oldest.size = direction < 0 ? remaining : negateDecimal(remaining);
    }
  }

  /** Replaces a market's open lots with one position (a test scripting the venue's position). */
  resetPosition(marketId: number, side: Side, size: string, entryPrice: string): void {
    this.lots.set(marketId, []);
    this.seed(marketId, side, size, entryPrice);
  }

  /**
   * The open position of a market: signed size and the average price of its open lots (exact
   * sum of size × price over size, to 18 decimals, rounded to nearest); undefined when flat.
   */
  position(marketId: number): { readonly signedSize: string; readonly avgEntryPrice: string } | undefined {
    const lots = this.lots.get(marketId) ?? [];
    if (lots.length === 0) return undefined;
    let size = '0';
    let cost = '0';
    for (const lot of lots) {
      size = addDecimals(size, lot.size);
      cost = addDecimals(cost, multiplyDecimals(lot.size, lot.price));
    }
    return {
      signedSize: size,
      avgEntryPrice: normalizeDecimal(averagePrice(cost, size), 'average entry'),
    };
  }

  /** Signed open size of a market ("0" when flat). */
  netSize(marketId: number): string {
    return (this.lots.get(marketId) ?? []).reduce((sum, lot) => addDecimals(sum, lot.size), '0');
  }

  /** Open positions per market as the guards read them (absolute size and a side); flat markets left out. */
  positions(): ReadonlyMap<number, PositionView> {
    const views = new Map<number, PositionView>();
    for (const marketId of this.lots.keys()) {
      const signed = this.netSize(marketId);
      const sign = compareDecimals(signed, '0');
      if (sign !== 0)
        views.set(marketId, { side: sign > 0 ? 'buy' : 'sell', size: sign > 0 ? signed : negateDecimal(signed) });
    }
    return views;
  }

  /** Whether a market has open lots (a mark change there moves unrealized). */
  holds(marketId: number): boolean {
    return (this.lots.get(marketId)?.length ?? 0) > 0;
  }

  /** The figures now, valuing open lots at `markOf` (a market without a mark is listed unpriced). */
  view(markOf: (marketId: number) => string | undefined): PnlView {
    let unrealized = '0';
    const unpriced: number[] = [];
    for (const [marketId, lots] of this.lots) {
      if (lots.length === 0) continue;
      const mark = markOf(marketId);
      if (mark === undefined) {
        unpriced.push(marketId);
        continue;
      }
      unrealized = addDecimals(unrealized, unrealizedOf(lots, mark));
    }
    const net = addDecimals(addDecimals(this.realized, unrealized), negateDecimal(this.fees));
    return { realized: this.realized, unrealized, fees: this.fees, net, unpricedMarkets: unpriced };
  }

  private lotsOf(marketId: number): Lot[] {
    let lots = this.lots.get(marketId);
    if (lots === undefined) {
      lots = [];
      this.lots.set(marketId, lots);
    }
    return lots;
  }
}

/**
 * Σ size × (mark − price) over the lots, exact: in fixed point at one scale, the mark parsed once
 * (the ledger is valued on every mark; a decimal string per step was most of that).
 */
function unrealizedOf(lots: readonly Lot[], mark: string): string {
  const m = parseDecimal(mark, 'mark price');
  let units = 0n;
  let scale = 0;
  for (const lot of lots) {
    const size = parseDecimal(lot.size, 'lot size');
    const price = parseDecimal(lot.price, 'lot price');
    const priceScale = Math.max(m.scale, price.scale);
    const move = m.units * pow10(priceScale - m.scale) - price.units * pow10(priceScale - price.scale);
    const termScale = size.scale + priceScale;
    const term = size.units * move;
    if (termScale > scale) {
      units *= pow10(termScale - scale);
      scale = termScale;
    }
    units += term * pow10(scale - termScale);
  }
  return fixedToDecimal(units, scale);
}

/** cost ÷ size to 18 decimals, nearest: the one rounded figure, and only for display (sizes are never zero here). */
function averagePrice(cost: string, size: string): string {
  const x = parseDecimal(cost, 'position cost');
  const y = parseDecimal(size, 'position size');
  return fixedToDecimal(divideRounded(x.units * pow10(18 + y.scale), y.units * pow10(x.scale), 'nearest'), 18);
}

import type { PnlSnapshot } from '../guards/killSwitch.js';
import type { Side } from '../intents/intents.js';
import type { PositionView } from '../tracking/accountState.js';
import { applyFill, FLAT, fromWad, markToWad, toWad, unrealisedWei, type AverageEntry } from './averageEntry.js';
import { PnlFigures, type PnlView } from './pnlView.js';

export interface PnlFill {
  readonly marketId: number;
  readonly side: Side;
  readonly price: string;
  readonly size: string;
  /** USDC paid; a rebate is negative. */
  readonly fee: string;
}

/** One market's open position valued at its mark: what a position row shows. */
export interface PositionValue {
  readonly marketId: number;
  /** Long positive, short negative. */
  readonly signedSize: string;
  readonly avgEntryPrice: string;
  /** Absent while the market has no mark. */
  readonly markPrice?: string;
  /** (mark − entry) × signed size; absent without a mark. */
  readonly unrealisedPnl?: string;
}

/** Marks to value open positions with. */
export type MarkOf = (marketId: number) => string | undefined;

/**
 * Realised and unrealised PnL and fees over a stream of fills, valued by average entry as the
 * venue values them (averageEntry.ts): per market one position, re-averaged when a fill adds to
 * it, realising against the average when one reduces it. Every figure is exact at the venue's 18
 * decimals, so the account's realisedPnl − fees is the venue's balance change from these fills to
 * the wei, and the positions' unrealisedPnl adds up to the view's.
 */
export class PnlLedger {
  private readonly books = new Map<number, AverageEntry>();
  private realisedWei = 0n;
  private feesWei = 0n;

  /**
   * Starts from a position held before the first fill (the session's opening position): booked as
   * bought or sold at its entry, with no fee.
   */
  seed(marketId: number, side: Side, size: string, entryPrice: string): void {
    const units = toWad(size, 'opening size');
    if (units === 0n) return;
    this.book(marketId, side === 'buy' ? units : -units, toWad(entryPrice, 'opening entry price'));
  }

  onFill(fill: PnlFill): void {
    const size = toWad(fill.size, 'fill size');
    const price = toWad(fill.price, 'fill price');
    const fee = toWad(fill.fee, 'fill fee');
    this.realisedWei += this.book(fill.marketId, fill.side === 'buy' ? size : -size, price);
    this.feesWei += fee;
  }

  /** The open position of a market (signed size and average entry); undefined when flat. */
  position(marketId: number): { readonly signedSize: string; readonly avgEntryPrice: string } | undefined {
    const book = this.books.get(marketId);
    if (book === undefined || book.size === 0n) return undefined;
    return { signedSize: fromWad(book.size), avgEntryPrice: fromWad(book.entry) };
  }

  /** Open positions per market as the guards read them (absolute size and a side); flat markets left out. */
  positions(): ReadonlyMap<number, PositionView> {
    const views = new Map<number, PositionView>();
    for (const [marketId, book] of this.books) {
      if (book.size !== 0n)
        views.set(marketId, {
          side: book.size > 0n ? 'buy' : 'sell',
          size: fromWad(book.size < 0n ? -book.size : book.size),
        });
    }
    return views;
  }

  /** Whether a market has an open position (a mark change there moves unrealised). */
  holds(marketId: number): boolean {
    return (this.books.get(marketId)?.size ?? 0n) !== 0n;
  }

  /** Each open position valued at its mark, by market id. */
  positionValues(markOf: MarkOf): PositionValue[] {
    const values: PositionValue[] = [];
    for (const [marketId, book] of [...this.books].sort(([a], [b]) => a - b)) {
      if (book.size === 0n) continue;
      const mark = markOf(marketId);
      const base = { marketId, signedSize: fromWad(book.size), avgEntryPrice: fromWad(book.entry) };
      values.push(
        mark === undefined
          ? base
          : { ...base, markPrice: mark, unrealisedPnl: fromWad(unrealisedWei(book, markToWad(mark))) },
      );
    }
    return values;
  }

  /** The figures now, valuing open positions at `markOf` (a market without a mark is listed unpriced). */
  view(markOf: MarkOf): PnlView {
    const unpriced: number[] = [];
    const unrealised = this.unrealised(markOf, unpriced);
    const net = this.realisedWei + unrealised - this.feesWei;
    return new PnlFigures(
      fromWad(this.realisedWei),
      fromWad(unrealised),
      fromWad(this.feesWei),
      fromWad(net),
      unpriced,
    );
  }

  /** The view's `netPnl` in wei (the markets without a mark left out, as there), without the view's strings. */
  netWei(markOf: MarkOf): bigint {
    return this.realisedWei + this.unrealised(markOf) - this.feesWei;
  }

  /**
   * What a kill switch judges, in wei: realised net of fees, and the open positions at
   * `markOf`; undefined while a market with an open position has no mark (a loss is never judged
   * on part of the book). The view's figures without their decimal strings: it is asked at every mark.
   */
  loss(markOf: MarkOf): PnlSnapshot | undefined {
    const unpriced: number[] = [];
    const unrealised = this.unrealised(markOf, unpriced);
    if (unpriced.length > 0) return undefined;
    return { realisedWei: this.realisedWei - this.feesWei, unrealisedWei: unrealised };
  }

  /** The open positions valued at `markOf`, wei; those of markets without a mark go to `unpriced` instead. */
  private unrealised(markOf: MarkOf, unpriced?: number[]): bigint {
    let unrealised = 0n;
    for (const [marketId, book] of this.books) {
      if (book.size === 0n) continue;
      const mark = markOf(marketId);
      if (mark === undefined) unpriced?.push(marketId);
      else unrealised += unrealisedWei(book, markToWad(mark));
    }
    return unrealised;
  }

  /** Applies a signed size at a price to the market's position; returns what it realised. */
  private book(marketId: number, signedSize: bigint, price: bigint): bigint {
    const effect = applyFill(this.books.get(marketId) ?? FLAT, signedSize, price);
    this.books.set(marketId, effect.position);
    return effect.realisedWei;
  }
}

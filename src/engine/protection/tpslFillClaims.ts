import { addDecimals, compareDecimals, decimalToFixed, negateDecimal } from '../../core/decimal.js';
import type { FillRecord } from '../../venue/schemas/wsFramesPrivate.js';
import type { TpslOrder } from '../orders/tpslOrder.js';
import type { FillOwner } from '../tracking/trackedFill.js';

export type { FillOwner } from '../tracking/trackedFill.js';

/**
 * Which TP/SL of ours a fill of an unknown order is the execution of. The venue's execution is a
 * reduce-only order the OperatorHub sends for the account (venue-tpsl.md): no client id, and no
 * feed of TP/SL records, so the fill is matched on what it shows: a taker fill, in the market of
 * one of our TP/SL orders that may be executing (accepted, triggered, or executed with less
 * attributed than its size), on its side, with size left to attribute. A triggered one goes
 * first, then the one whose stop price is nearest the fill's price. Each order's attributed sizes
 * are counted, so it never takes more than its size.
 */
export class TpslFillClaims {
  private readonly attributed = new Map<string, string>();

  claim(fill: FillRecord, candidates: readonly TpslOrder[]): FillOwner | undefined {
    if (fill.liquidity_indicator !== 'TAKER') return undefined;
    const side = fill.side === 'sell' ? 'SELL' : 'BUY';
    const open = candidates.filter(
      (o) =>
        o.marketId === fill.market_id &&
        o.side === side &&
        (o.state === 'accepted' || o.state === 'triggered' || o.state === 'cancelling' || o.state === 'executed') &&
        compareDecimals(this.left(o), fill.size) >= 0,
    );
    if (open.length === 0) return undefined;
    const chosen = [...open].sort((a, b) => byRank(a, b, fill.price))[0];
    if (chosen === undefined) return undefined;
    this.attributed.set(chosen.id, addDecimals(this.attributedTo(chosen.id), fill.size));
    return { intentId: chosen.id, strategy: chosen.strategy };
  }

  /** What was attributed to the order so far (the fills of its execution seen by this process). */
  attributedTo(id: string): string {
    return this.attributed.get(id) ?? '0';
  }

  private left(order: TpslOrder): string {
    return addDecimals(order.size, negateDecimal(this.attributedTo(order.id)));
  }
}

/** Triggered first, then the nearer stop price to the fill's (exact, on 18 places). */
function byRank(a: TpslOrder, b: TpslOrder, price: string): number {
  const triggered = Number(b.state === 'triggered') - Number(a.state === 'triggered');
  if (triggered !== 0) return triggered;
  const da = distance(a.stopPrice, price);
  const db = distance(b.stopPrice, price);
  return da < db ? -1 : da > db ? 1 : 0;
}

function distance(stopPrice: string, price: string): bigint {
  const d = decimalToFixed(addDecimals(stopPrice, negateDecimal(price)), 18, 'price', 'nearest');
  return d < 0n ? -d : d;
}

import type { Address } from '../../core/address.js';
import type { OrderBook } from './orderBook.js';
import { remainingSteps, type SimOrder } from './simOrder.js';

/** What the matching walk needs from the exchange; it owns no state of its own. */
export interface MatchContext {
  readonly book: OrderBook;
  readonly nowMs: number;
  /** Steps of `side` the account can still trade without increasing or flipping its position. */
  reducible(account: Address, side: 0 | 1): bigint;
  /** Executes `steps` at the maker's price: ledger, events, and retiring a filled maker. */
  fill(maker: SimOrder, taker: SimOrder, steps: number): void;
  /** Cancels a resting order the walk had to drop (self-trade, expiry, exhausted reduce-only). */
  cancelMaker(maker: SimOrder): void;
}

/** Why the walk stopped with size left: the book ran out / stopped crossing, or a rule ended it. */
export type MatchStop = 'done' | 'no_cross' | 'self_trade' | 'reduce_only_exhausted';

/** True when a taker on `side` at limit (or slippage bound) `priceTicks` may trade at `makerTicks`. */
export function crosses(side: 0 | 1, priceTicks: number, makerTicks: number): boolean {
  return side === 0 ? makerTicks <= priceTicks : makerTicks >= priceTicks;
}

/**
 * Walks the opposite side in price-time priority and trades the taker against it at each maker's
 * price. Self-trade prevention follows the taker's stp_mode: ExpireMaker cancels the resting own
 * order and continues, ExpireTaker stops (the caller cancels the rest), ExpireBoth does both.
 * Reduce-only orders, resting or incoming, never trade past the position they reduce.
 */
export function matchOrder(context: MatchContext, taker: SimOrder): MatchStop {
  const opposite = taker.side === 0 ? 1 : 0;
  while (remainingSteps(taker) > 0) {
    const maker = context.book.best(opposite);
    if (maker === undefined || !crosses(taker.side, taker.priceTicks, maker.priceTicks)) return 'no_cross';
    if (maker.expiresAtMs !== undefined && maker.expiresAtMs <= context.nowMs) {
      context.cancelMaker(maker);
      continue;
    }
    if (maker.account === taker.account) {
      if (taker.stpMode === 1) return 'self_trade';
      context.cancelMaker(maker);
      if (taker.stpMode === 2) return 'self_trade';
      continue;
    }
    let steps = Math.min(remainingSteps(taker), remainingSteps(maker));
    if (maker.reduceOnly) {
      const cap = context.reducible(maker.account, maker.side);
      if (cap === 0n) {
        context.cancelMaker(maker);
        continue;
      }
      steps = Math.min(steps, Number(cap));
    }
    if (taker.reduceOnly) {
      const cap = context.reducible(taker.account, taker.side);
      if (cap === 0n) return 'reduce_only_exhausted';
      steps = Math.min(steps, Number(cap));
    }
    context.fill(maker, taker, steps);
  }
  return 'done';
}

/**
 * How much a FOK taker could fill right now, without touching anything. Mirrors `matchOrder`:
 * own orders are skipped under ExpireMaker and end the walk otherwise; expired orders are
 * skipped; resting reduce-only orders count only up to their account's position.
 */
export function fillableSteps(context: Pick<MatchContext, 'book' | 'nowMs' | 'reducible'>, taker: SimOrder): number {
  const opposite = taker.side === 0 ? 1 : 0;
  const wanted = remainingSteps(taker);
  const reduceBudget = new Map<Address, bigint>();
  let total = 0;
  for (const maker of context.book.orders(opposite)) {
    if (total >= wanted) break;
    if (!crosses(taker.side, taker.priceTicks, maker.priceTicks)) break;
    if (maker.expiresAtMs !== undefined && maker.expiresAtMs <= context.nowMs) continue;
    if (maker.account === taker.account) {
      if (taker.stpMode === 0) continue;
      break;
    }
    let steps = remainingSteps(maker);
    if (maker.reduceOnly) {
      const budget = reduceBudget.get(maker.account) ?? context.reducible(maker.account, maker.side);
      steps = Math.min(steps, Number(budget));
      reduceBudget.set(maker.account, budget - BigInt(steps));
    }
    total += steps;
  }
  return Math.min(total, wanted);
}

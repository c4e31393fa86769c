import { compareDecimals } from '../../core/decimal.js';
import type { BookLevel, BookSnapshot } from './exchangeRecords.js';

/**
 * The orderbook channel's update between two snapshots of one market (venue-facts: updates carry
 * absolute levels, quantity "0" deletes a level): every level that is new or changed, plus every
 * level that disappeared with quantity "0" and order_count 0. Bids descending, asks ascending.
 */
export function bookDiff(previous: BookSnapshot, next: BookSnapshot): { bids: BookLevel[]; asks: BookLevel[] } {
  return {
    bids: sideDiff(previous.bids, next.bids).sort((a, b) => compareDecimals(b.price, a.price)),
    asks: sideDiff(previous.asks, next.asks).sort((a, b) => compareDecimals(a.price, b.price)),
  };
}

function sideDiff(previous: readonly BookLevel[], next: readonly BookLevel[]): BookLevel[] {
  const before = new Map(previous.map((level) => [level.price, level]));
  const out: BookLevel[] = [];
  for (const level of next) {
    const old = before.get(level.price);
    if (old === undefined || old.quantity !== level.quantity || old.order_count !== level.order_count) out.push(level);
    before.delete(level.price);
  }
  for (const gone of before.values()) out.push({ price: gone.price, quantity: '0', order_count: 0 });
  return out;
}

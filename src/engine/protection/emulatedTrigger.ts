import { compareDecimals } from '../../core/decimal.js';
import type { TpslOrder } from '../orders/tpslOrder.js';

/**
 * The venue's trigger rule (venue-tpsl.md, its trading pages), for the stops the engine emulates:
 * a take-profit closing a long fires at or above its stop price, closing a short at or below; a
 * stop-loss the reverse. The order's side says which position it closes (SELL closes a long).
 */
export function emulatedStopFires(order: Pick<TpslOrder, 'side' | 'role' | 'stopPrice'>, price: string): boolean {
  const closesLong = order.side === 'SELL';
  const wantsHigher = order.role === 'take_profit' ? closesLong : !closesLong;
  const cmp = compareDecimals(price, order.stopPrice);
  return wantsHigher ? cmp >= 0 : cmp <= 0;
}

import type { StopTypeName, TpslSide } from '../../venue/schemas/tpslNames.js';

/**
 * The venue's trigger rule (venue-tpsl.md, from its trading pages): a take-profit of a long fires
 * when the watched price is at or above the stop price, of a short at or below; a stop-loss the
 * reverse. The order's own side says which position it closes (SELL closes a long), so the rule
 * holds whatever the position is when the price comes.
 */
export function fires(
  order: { readonly side: TpslSide; readonly stopType: StopTypeName },
  stopWei: bigint,
  priceWei: bigint,
): boolean {
  const closesLong = order.side === 'SELL';
  const wantsHigher = order.stopType === 'TAKE_PROFIT' ? closesLong : !closesLong;
  return wantsHigher ? priceWei >= stopWei : priceWei <= stopWei;
}

import type { Intent } from '../intents/intents.js';
import type { TrackedPosition } from '../tracking/positionBook.js';
import type { TrackedOrder } from '../orders/trackedOrder.js';

type NewOrder = Omit<TrackedOrder, 'state' | 'filledSize'>;

/**
 * The order an intent asks for, as the engine holds it while it waits for admission: its size
 * and price as the strategy wrote them (the pre-trade checks snap them before it is sent). A
 * closePosition's side and size are the open position's. Undefined for intents that place no order.
 */
export function queuedOrderOf(
  intent: Intent,
  position: (marketId: number) => TrackedPosition | undefined,
): NewOrder | undefined {
  // Literals, not spreads or Object.assign: this runs for every placement on its way out.
  const { intentId, strategy, marketId } = intent;
  switch (intent.kind) {
    case 'placeLimit': {
      const { side, size, price } = intent;
      return intent.timeInForce === 'GTC'
        ? { intentId, strategy, marketId, side, size, price }
        : { intentId, strategy, marketId, side, size, price, expires: true };
    }
    case 'placeMarket':
      return {
        intentId,
        strategy,
        marketId,
        side: intent.side,
        size: intent.size,
        price: '0',
        market: true,
        expires: true,
      };
    case 'closePosition': {
      const p = position(marketId);
      const side = p?.side === 'sell' ? 'buy' : 'sell';
      return { intentId, strategy, marketId, side, size: p?.size ?? '0', price: '0', market: true, expires: true };
    }
    case 'cancel':
    case 'cancelAll':
    case 'setLeverage':
    case 'setMarginMode':
    case 'adjustIsolatedMargin':
    case 'replace':
    case 'quote':
    case 'protect':
    case 'bracket':
      // A replace's order is its replacement placement's (`Quoting.arrivedReplace`); a quote
      // places through intents of its own, and so does a bracket (its entry).
      return undefined;
  }
}

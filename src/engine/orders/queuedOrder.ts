import type { Intent } from '../intents/intents.js';
import type { TrackedPosition } from '../tracking/positionBook.js';
import type { TrackedOrder } from '../tracking/trackedOrder.js';

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
  const base = { intentId: intent.intentId, strategy: intent.strategy, marketId: intent.marketId };
  switch (intent.kind) {
    case 'placeLimit': {
      const order: NewOrder = Object.assign(base, { side: intent.side, size: intent.size, price: intent.price });
      return intent.timeInForce === 'GTC' ? order : Object.assign(order, { expires: true });
    }
    case 'placeMarket':
      return Object.assign(base, { side: intent.side, size: intent.size, price: '0', market: true, expires: true });
    case 'closePosition': {
      const p = position(intent.marketId);
      const side = p === undefined ? 'sell' : p.side === 'buy' ? 'sell' : 'buy';
      return Object.assign(base, { side, size: p?.size ?? '0', price: '0', market: true, expires: true } as const);
    }
    case 'cancel':
    case 'cancelAll':
    case 'setLeverage':
    case 'setMarginMode':
    case 'adjustIsolatedMargin':
      return undefined;
  }
}

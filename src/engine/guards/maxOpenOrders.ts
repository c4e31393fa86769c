import { countIn } from '../tracking/accountState.js';
import type { GuardConfig } from '../config/engineConfig.js';
import type { Intent } from '../intents/intents.js';
import { refusal } from '../intents/refusal.js';
import { ALLOW, refused, type GuardState, type GuardVerdict } from './guardState.js';

/**
 * Caps resting orders across the account, counting signed actions still in flight (a cancel in
 * flight counts too, which errs on the safe side). Only orders that can rest are limited: market
 * orders and FOK/IOC limits leave nothing on the book.
 */
export function checkMaxOpenOrders(state: GuardState, intent: Intent, config: GuardConfig): GuardVerdict {
  if (intent.kind !== 'placeLimit' || intent.timeInForce === 'FOK' || intent.timeInForce === 'IOC') return ALLOW;
  const count = countIn(state.openOrders) + countIn(state.inFlight);
  if (count < config.maxOpenOrders) return ALLOW;
  return refused(
    refusal(
      'max_open_orders',
      count,
      `${count} orders are open or in flight; the limit is ${config.maxOpenOrders}`,
      'cancel some orders or raise guards.maxOpenOrders',
    ),
  );
}

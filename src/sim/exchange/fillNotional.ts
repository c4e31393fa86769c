import type { Address } from '../../core/address.js';
import { decimalToWei, multiplyDecimals } from '../../core/decimal.js';
import type { ExchangeEvent } from './exchangeEvents.js';

/**
 * What the account's fills in `events` are worth in USD wei, rounded up: what they spend of an
 * OperatorHub allowance (JWT orders, TP/SL executions).
 */
export function fillNotionalWei(account: Address, events: readonly ExchangeEvent[]): bigint {
  let total = 0n;
  for (const event of events) {
    if (event.type !== 'fill' || event.account.toLowerCase() !== account.toLowerCase()) continue;
    total += decimalToWei(multiplyDecimals(event.fill.price, event.fill.size), 'fill notional', 'up');
  }
  return total;
}

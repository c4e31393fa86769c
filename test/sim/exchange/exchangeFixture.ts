import type { Address } from '../../../src/core/address.js';
import { Exchange, type ExchangeOptions } from '../../../src/sim/exchange/exchange.js';
import type { ExchangeEvent } from '../../../src/sim/exchange/exchangeEvents.js';
import type { PlaceOrderParams } from '../../../src/sim/exchange/exchangeRecords.js';

/** Shared set-up for exchange tests: no synthetic makers, funded accounts, readable order helpers. */
export const ALICE = '0x1111111111111111111111111111111111111111' as Address;
export const BOB = '0x2222222222222222222222222222222222222222' as Address;
export const CAROL = '0x3333333333333333333333333333333333333333' as Address;
export const T0 = 1_700_000_000_000;

export function quietExchange(
  options: Partial<ExchangeOptions> = {},
  funded: readonly Address[] = [ALICE, BOB, CAROL],
): Exchange {
  const exchange = new Exchange({ seed: 7, makers: false, ...options });
  for (const account of funded) exchange.deposit(account, '1000000');
  return exchange;
}

/** A GTC limit order in market 1 unless overridden. */
export function limit(
  side: 0 | 1,
  priceTicks: number,
  sizeSteps: number,
  extra: Partial<PlaceOrderParams> = {},
): PlaceOrderParams {
  return {
    market_id: 1,
    size_steps: sizeSteps,
    price_ticks: priceTicks,
    side,
    post_only: false,
    reduce_only: false,
    stp_mode: 0,
    order_type: 1,
    time_in_force: 0,
    ...extra,
  };
}

/** A market order (IOC unless overridden) with `boundTicks` as its slippage bound. */
export function market(
  side: 0 | 1,
  boundTicks: number,
  sizeSteps: number,
  extra: Partial<PlaceOrderParams> = {},
): PlaceOrderParams {
  return limit(side, boundTicks, sizeSteps, { order_type: 0, time_in_force: 3, ...extra });
}

export function ofType<T extends ExchangeEvent['type']>(
  events: readonly ExchangeEvent[],
  type: T,
): Extract<ExchangeEvent, { type: T }>[] {
  return events.filter((e): e is Extract<ExchangeEvent, { type: T }> => e.type === type);
}

/** The text of the ExchangeRefusal `action` throws (fails the test if nothing is thrown). */
export function refusalText(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    if (error instanceof Error && 'text' in error && typeof error.text === 'string') return error.text;
    throw error;
  }
  throw new Error('expected a refusal, but the action succeeded');
}
